import Foundation
import MediaGraphCodecs
import Testing

/// The GIF writer and its LZW encoder against ffmpeg's GIF decoder: index images of every code
/// size (palettes of 2 ... 256 grey levels, so decoded grey = index) and large enough to fill the
/// 4096-entry code table many times; frame rectangles and delays; the centisecond timing; the
/// size limit's message.
@Suite struct GifWriterTests {
    /// Writes one frame of `indices` with a grey palette of `colours` levels (index i → grey
    /// 255 * i / (colours - 1)) and returns ffmpeg's decode as grey bytes.
    func roundTrip(_ indices: [UInt8], width: Int, height: Int, colours: Int) throws -> [UInt8] {
        let writer = GifWriter(width: width, height: height)
        var bytes = writer.header(loop: 0)
        var palette: [UInt8] = []
        for i in 0..<colours { let g = UInt8(255 * i / max(colours - 1, 1)); palette += [g, g, g] }
        indices.withUnsafeBufferPointer {
            writer.appendFrame(indices: $0.baseAddress!, stride: width, rect: GifRect(x: 0, y: 0, width: width, height: height),
                               palette: palette, transparentIndex: nil, delay: 10, into: &bytes)
        }
        bytes += GifWriter.trailer
        let dir = NSTemporaryDirectory() + "gifwriter-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try writeFile(dir + "/t.gif", bytes)
        let r = try runTool("ffmpeg", ["-v", "error", "-i", dir + "/t.gif", "-pix_fmt", "gray", "-f", "rawvideo", dir + "/t.gray"])
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        return (try? readFile(dir + "/t.gray")) ?? []
    }

    @Test(arguments: [2, 3, 4, 16, 17, 128, 256])
    func lzwImagesDecodeExactlyInFFmpeg(_ colours: Int) throws {
        // 331x201 (odd sizes) of a pseudo-random walk: long runs and noise, many table resets
        let width = 331, height = 201
        var seed: UInt32 = 0x1234_5678 &+ UInt32(colours)
        var v = 0
        let indices = (0..<width * height).map { _ -> UInt8 in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            if seed >> 28 < 5 { v = Int(seed >> 8) % colours }  // a new value now and then: runs
            return UInt8(v)
        }
        let decoded = try roundTrip(indices, width: width, height: height, colours: colours)
        let expected = indices.map { UInt8(255 * Int($0) / max(colours - 1, 1)) }
        #expect(decoded.count == expected.count)
        // a Bool: on a failure Swift Testing would diff the two pictures for its message, for minutes
        let same = decoded == expected
        #expect(same)
    }

    @Test func singlePixelAndSingleColour() throws {
        #expect(try roundTrip([0], width: 1, height: 1, colours: 2) == [0])
        #expect(try roundTrip([UInt8](repeating: 1, count: 64 * 64), width: 64, height: 64, colours: 2) == [UInt8](repeating: 255, count: 64 * 64))
    }

    @Test func timingCarriesTheRoundingAndDropsTooShortFrames() {
        var t = GifFrameTiming()
        t.begin(at: 10)  // timestamps need not start at zero
        let delays = (1...30).compactMap { t.delay(endingAt: 10 + Double($0) * 1001 / 30000) }
        #expect(delays.count == 30 && delays.reduce(0, +) == 100)
        #expect(Set(delays) == [3, 4])
        var fast = GifFrameTiming()
        fast.begin(at: 0)
        // ends at 1.67 → 2 cs, 3.33 → 3 (1 cs: dropped), 5, 6.67 → 7, 8.33 → 8 (dropped)
        let sixty = (1...5).map { fast.delay(endingAt: Double($0) / 60) }
        #expect(sixty == [2, nil, 3, 2, nil])
        #expect(fast.lastDelay(endingAt: 0.1) == 3)  // the last frame is never dropped: 7 → 10
    }

    @Test func canvasLargerThanTheFormatAllowsIsRefused() {
        #expect(throws: CodecError(.invalidInput, component: "gif", message: "a GIF is at most 65535 pixels per side; found 70000x16")) {
            _ = try GifAnimationEncoder(width: 70000, height: 16, settings: GifSettings())
        }
    }
}
