import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Decoded pictures are pooled SampleBuffers handed out without a copy, and that is safe for
/// filters that write in place.
@Suite struct DecoderPoolTests {
    /// get_buffer2 hands out pool memory: every frame's planes lie in a block of the decoder's
    /// pools, and after warm-up no new block is allocated.
    @Test func framesLieInPoolBlocksAndPoolsStayFlat() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "long.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "6",
                                                  "-c:v", "libx264", "-bf", "3", "-refs", "4", "-g", "250", "-pix_fmt", "yuv420p"])
        let stream = try TestDemuxer.read(path, video: true)
        var count = 0, outside = 0
        var warm = 0
        let decoder = try decodeVideo(stream, threads: 2) { frame, decoder in
            if !decoder.isPoolBlock(frame.planes!.data0) { outside += 1 }
            count += 1
            if count == 30 { warm = decoder.poolBlocksAllocated }
        }
        #expect(count == 150)
        #expect(outside == 0, "frames outside the decoder's pool blocks")
        #expect(decoder.statistics.zeroCopyFrames == 150 && decoder.statistics.copiedFrames == 0)
        #expect(warm > 0 && decoder.poolBlocksAllocated == warm, "blocks: \(warm) after 30 frames, \(decoder.poolBlocksAllocated) after 150")
    }

    /// A filter that writes into decoded frames (in place when it holds the only reference,
    /// into a copy otherwise) never corrupts the reference pictures libavcodec still predicts
    /// from: decode → invert equals ffmpeg's decode → negate on a long GOP with B-frames. Frames
    /// wait in a queue of 0, 3 or 8 before the filter (a graph's queue): right after decoding
    /// libavcodec still holds every picture (the copy path), later it has let go of most (in
    /// place); both paths are taken.
    @Test func writingInPlaceNeverCorruptsLaterFrames() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "gop.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "4",
                                                 "-c:v", "libx264", "-bf", "3", "-refs", "4", "-g", "250", "-pix_fmt", "yuv420p"])
        let stream = try TestDemuxer.read(path, video: true)
        let theirs = try ffmpegFrameHashes(path, filters: ["negate"])
        var inPlace = 0, copied = 0
        for depth in [0, 3, 8] {
            var ours: [FrameHash] = []
            var queue: [SampleBuffer] = []
            func invert() {
                var f = queue.removeFirst()
                if SampleBuffer.isUnique(&f) { inPlace += 1 } else { copied += 1 }
                let w = SampleBuffer.writable(consume f)
                let planes = w.planes!
                for p in 0..<planes.planeCount {
                    for y in 0..<planes.planeSize(p).height {
                        let row = planes.data(p) + y * planes.stride(p)
                        for x in 0..<planes.rowBytes(p) { row[x] = 255 &- row[x] }
                    }
                }
                ours.append(frameHash(w.freeze()))
            }
            _ = try decodeVideo(stream, threads: 2) { frame, _ in
                queue.append(frame)
                if queue.count > depth { invert() }
            }
            while !queue.isEmpty { invert() }
            #expect(ours.count == 100)
            expectSameHashes(ours, theirs.frames, "decode → queue of \(depth) → invert")
        }
        #expect(inPlace > 0 && copied > 0, "in place \(inPlace), copied \(copied)")
    }
}
