import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Time zero, the end mark, errors and conversions of the decoders.
@Suite struct DecoderTimingTests {
    /// A trim: packets before zero are decoded, the pictures before zero dropped, the first frame
    /// out is the source's frame at the new zero; pictures from the end mark on are dropped.
    @Test func videoBeforeZeroIsDecodedAndDropped() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "bf.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2",
                                                "-c:v", "libx264", "-bf", "3", "-g", "50", "-pix_fmt", "yuv420p"])
        var stream = try TestDemuxer.read(path, video: true)
        let theirs = try ffmpegFrameHashes(path).frames
        let shift = theirs[13].pts
        stream.packets = stream.packets.map { p in
            SampleBuffer.restamped(p) { $0.pts -= shift; $0.dts -= shift }
        }
        // and an end mark at the source's frame 40: on the packet of that frame, in decode
        // order after the frames it needs (a B-frame's references come before it)
        let endFrame = theirs[40].pts - shift
        let marked = stream.packets.lastIndex { $0.pts == endFrame - 512 }!
        stream.packets[marked] = SampleBuffer.restamped(stream.packets[marked]) { $0.flags.insert(.endOfPresentation) }
        var ours: [FrameHash] = []
        let d = try decodeVideo(stream) { f, _ in ours.append(frameHash(f)) }
        let expected = theirs[13..<40].map { FrameHash(pts: $0.pts - shift, size: $0.size, md5: $0.md5) }
        expectSameHashes(ours, Array(expected), "after a lead-in of 13 frames, up to the end mark")
        #expect(d.statistics.droppedBeforeZero == 13 && d.statistics.droppedAtEnd == 10, "\(d.statistics)")
    }

    /// Audio before zero is cut to the sample, and at the end mark too.
    @Test func audioCutToTheSampleAtZeroAndAtTheEndMark() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "a.wav", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1", "-c:a", "pcm_s16le"])
        let stream = try TestDemuxer.read(path, video: false)
        let all = try readFile(path).suffix(48000 * 2)  // the samples: after the 44-byte header
        let lead: Int64 = 1001, end: Int64 = 30011
        var cut = stream.packets.map { p -> SampleBuffer in
            SampleBuffer.restamped(p) { $0.pts -= lead; $0.dts = $0.pts }
        }
        // the end mark on the packet that holds sample `end`
        let k = cut.firstIndex { $0.pts + $0.duration > end }!
        cut[k] = SampleBuffer.restamped(cut[k]) { $0.flags.insert(.endOfPresentation); $0.duration = end - $0.pts }
        let decoder = try AudioDecoder(input: stream.encodedAudio!)
        var ours: [UInt8] = []
        var first: Int64?
        for p in cut {
            try decoder.send(p)
            while let b = try decoder.receive() { ours += b.bytes; if first == nil { first = b.pts } }
        }
        try decoder.sendEndOfStream()
        while let b = try decoder.receive() { ours += b.bytes }
        #expect(first == 0)
        #expect(ours.count == Int(end) * 2, "\(ours.count / 2) samples")
        #expect(ours == Array(all.dropFirst(Int(lead) * 2).prefix(Int(end) * 2)))
        #expect(decoder.statistics.samplesCutBeforeZero == lead)
    }

    /// A packet libavcodec cannot decode: the error names the codec and the packet's time, and
    /// the decoder stays usable (the skip policy goes on with the next packet and recovers at
    /// the next key frame).
    @Test func corruptPacketNamesItsTime() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "v.webm", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "1",
                                                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "5"])
        let stream = try TestDemuxer.read(path, video: true)
        // with frame threads the error surfaces a few packets later: it is still attributed to
        // the packet that failed
        for threads in [1, 3] {
            let decoder = try VideoDecoder(input: stream.encodedVideo!, threads: threads)
            var errors: [String] = []
            var frames = 0
            for (i, p) in stream.packets.enumerated() {
                // packet 10 without a VP9 frame marker
                let b = i != 10 ? p : SampleBuffer(metadata: p.metadata, payload: .packet(PacketBytes([UInt8](repeating: 0xFF, count: 64))))
                do {
                    try decoder.send(b)
                    while try decoder.receive() != nil { frames += 1 }
                } catch {
                    errors.append("\(error)")
                }
            }
            try decoder.sendEndOfStream()
            while try decoder.receive() != nil { frames += 1 }
            // the pictures that predict from the lost one fail too, up to the next key frame
            #expect(errors.count >= 1 && errors.count <= 5, "\(errors)")
            #expect(errors.first?.hasPrefix("vp9 decoder: the packet at 0.4 s (pts 400 in 1/1000) cannot be decoded: Invalid frame marker") == true,
                    "\(threads) threads: \(errors)")
            #expect(frames >= 20)
        }
    }

    /// A picture layout MediaGraph has no format for (PNG's rgb24) is converted to the declared
    /// format with libswscale, as ffmpeg's -pix_fmt does, and counted.
    @Test func pictureFormatWithoutOursIsConverted() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "png.mov", ["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5",
                                                 "-c:v", "png", "-pix_fmt", "rgb24"])
        let stream = try TestDemuxer.read(path, video: true)
        var declared = stream.encodedVideo!.raw
        declared.pixelFormat = .rgba
        declared.range = .full
        var ours: [FrameHash] = []
        let d = try decodeVideo(stream, output: declared) { f, _ in ours.append(frameHash(f)) }
        expectSameHashes(ours, try ffmpegFrameHashes(path, pixelFormat: "rgba").frames, "png rgb24 → rgba")
        #expect(d.statistics.convertedFrames == 5)
        #expect(d.formatChange?.description.hasPrefix("rgb24 96x64") == true)
    }
}
