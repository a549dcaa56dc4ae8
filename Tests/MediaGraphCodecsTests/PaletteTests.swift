import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// pal8 streams: described as decoding to rgba; the palette AVI gives only as its first packet's
/// side data (AV_PKT_DATA_PALETTE) comes with that packet and again after a seek, and a decoder
/// given it expands the palette exactly as ffmpeg does.
@Suite struct PaletteTests {
    static func makeAVI(_ dir: TempDir) throws -> String {
        let path = dir.path("p8.avi")
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:duration=1",
                                       "-pix_fmt", "pal8", "-c:v", "rawvideo", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test func aviPaletteComesWithTheFirstPacketAndAfterASeek() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let d = try Demuxer(path: try Self.makeAVI(dir))
        #expect(d.streams[0].nativePixelFormat == "pal8")
        #expect(d.streams[0].pixelFormat == .rgba, "pal8 is colour: it decodes to rgba, not \(d.streams[0].pixelFormat)")
        let first = try #require(try d.read())
        #expect(first.palette?.count == 1024, "the first packet carries the palette")
        let second = try #require(try d.read())
        #expect(second.palette == nil, "later packets do not (no allocation per packet)")
        try d.seek(toMicroseconds: 500_000)
        let afterSeek = try #require(try d.read())
        #expect(afterSeek.palette == first.palette, "the first packet after a seek carries it again")
        #expect(try d.read()?.palette == nil)

        // a seek before any read: the palette was learnt when the file was opened
        let fresh = try Demuxer(path: try Self.makeAVI(dir))
        try fresh.seek(toMicroseconds: 500_000)
        #expect(try fresh.read()?.palette == first.palette)
    }

    /// The decoder with the palette gives ffmpeg's rgba; without it, the all-black palette
    /// libavcodec starts with.
    @Test func decoderExpandsThePaletteAsFFmpeg() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeAVI(dir)
        let d = try Demuxer(path: path)
        let info = d.streams[0]
        let encoded = EncodedVideoFormat(codec: info.codec, raw: info.videoFormat, timeBase: info.timeBase, extradata: info.extradata,
                                         storedLayout: info.nativePixelFormat, codedBitsPerSample: info.codedBitsPerSample)
        let decoder = try VideoDecoder(input: encoded, threads: 1)
        #expect(decoder.output.pixelFormat == .rgba)
        let blind = try VideoDecoder(input: encoded, threads: 1)
        let p = try #require(try d.read())
        try p.bytes.withUnsafeBytes {
            try decoder.send(bytes: $0, pts: p.pts, dts: p.dts, duration: p.duration, keyFrame: p.isKeyFrame, palette: p.palette)
            try blind.send(bytes: $0, pts: p.pts, dts: p.dts, duration: p.duration, keyFrame: p.isKeyFrame)
        }
        let frame = try #require(try decoder.receive())
        let dark = try #require(try blind.receive())
        let ffmpeg = try runTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba",
                                            dir.path("theirs.rgba")])
        #expect(ffmpeg.status == 0)
        let theirs = try readFile(dir.path("theirs.rgba"))
        let ours = packedRGBA(frame)
        #expect(ours.count == theirs.count && firstDifference(ours, theirs) == nil, "first difference at \(firstDifference(ours, theirs) ?? -1)")
        #expect(packedRGBA(dark).enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 }, "without the palette: black")
    }

    func packedRGBA(_ frame: SampleBuffer) -> [UInt8] {
        guard let planes = frame.planes else { return [] }
        var out: [UInt8] = []
        for y in 0..<planes.height {
            out.append(contentsOf: UnsafeBufferPointer(start: planes.data(0) + y * planes.stride(0), count: planes.width * 4))
        }
        return out
    }
}
