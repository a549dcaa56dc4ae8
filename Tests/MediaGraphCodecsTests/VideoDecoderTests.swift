import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Decoded frames against ffmpeg's own decode of the same file: same frames, same timestamps,
/// same bytes (framemd5).
@Suite struct VideoDecoderTests {
    static let source = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2"]

    func check(_ path: String, _ what: String, threads: Int = 2, pixelFormat: String? = nil,
               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> VideoDecoder {
        let stream = try TestDemuxer.read(path, video: true)
        var ours: [FrameHash] = []
        let decoder = try decodeVideo(stream, threads: threads) { frame, _ in ours.append(frameHash(frame)) }
        let theirs = try ffmpegFrameHashes(path, pixelFormat: pixelFormat)
        #expect(theirs.timeBase == "\(stream.encodedVideo!.timeBase)", "\(what): time base", sourceLocation: sourceLocation)
        expectSameHashes(ours, theirs.frames, what, sourceLocation: sourceLocation)
        return decoder
    }

    @Test func h264WithBFramesInMP4() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "bf.mp4", Self.source + ["-c:v", "libx264", "-bf", "3", "-g", "50", "-pix_fmt", "yuv420p"])
        let d = try check(path, "h264 mp4")
        #expect(d.decodesIntoPool)
        #expect(d.statistics.framesOut == 50)
        #expect(d.statistics.zeroCopyFrames == 50, "every frame decoded into pooled memory: \(d.statistics)")
    }
}
