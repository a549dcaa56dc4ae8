import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Decoded audio against ffmpeg's decode of the same file, sample for sample, in the decoder's
/// own sample format (interleaved for the comparison: lossless).
@Suite struct AudioDecoderTests {
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1.3",
                       "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=1.3",
                       "-filter_complex", "[0:a][1:a]amerge=inputs=2[a]", "-map", "[a]"]

    /// ffmpeg's raw output format for one of our sample formats (the packed equivalent).
    static func rawFormat(_ f: SampleFormat) -> String {
        switch f {
        case .u8, .u8planar: return "u8"
        case .s16, .s16planar: return "s16le"
        case .s32, .s32planar: return "s32le"
        case .f32, .f32planar: return "f32le"
        case .f64, .f64planar: return "f64le"
        }
    }

    /// Interleaves a buffer's samples (planar formats hold channel after channel).
    static func interleaved(_ b: SampleBuffer, _ f: AudioFormat) -> [UInt8] {
        guard f.sampleFormat.isPlanar else { return b.bytes }
        let bps = f.sampleFormat.bytesPerSample, n = b.sampleCount, ch = f.channels
        var out = [UInt8](repeating: 0, count: n * ch * bps)
        for c in 0..<ch {
            for i in 0..<n {
                for k in 0..<bps { out[(i * ch + c) * bps + k] = b.bytes[(c * n + i) * bps + k] }
            }
        }
        return out
    }

    @discardableResult
    func check(_ path: String, _ what: String, firstPTS: Int64 = 0, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> AudioDecoder {
        let stream = try TestDemuxer.read(path, video: false)
        let decoder = try AudioDecoder(input: stream.encodedAudio!)
        var ours: [UInt8] = []
        var pts: [Int64] = []
        var samples: Int64?
        func take(_ b: SampleBuffer) {
            ours += Self.interleaved(b, decoder.output)
            pts.append(b.pts)
            #expect(samples == nil || b.pts == samples || b.flags.contains(.discontinuity), "\(what): buffer at \(b.pts) after \(samples ?? 0) samples", sourceLocation: sourceLocation)
            samples = b.pts + Int64(b.sampleCount)
        }
        for p in stream.packets {
            try decoder.send(p)
            while let b = try decoder.receive() { take(b) }
        }
        try decoder.sendEndOfStream()
        while let b = try decoder.receive() { take(b) }
        let raw = try ffmpegRaw(path, format: Self.rawFormat(decoder.output.sampleFormat))
        let frame = decoder.output.sampleFormat.bytesPerSample * decoder.output.channels
        #expect(!ours.isEmpty, "\(what): no audio", sourceLocation: sourceLocation)
        #expect(ours.count / frame == raw.count / frame, "\(what): \(ours.count / frame) samples, ffmpeg \(raw.count / frame)", sourceLocation: sourceLocation)
        if let d = firstDifference(ours, raw) {
            Issue.record("\(what): first difference at sample \(d / frame)", sourceLocation: sourceLocation)
        }
        #expect(pts.first == firstPTS, "\(what): first sample at \(pts.first ?? -1)", sourceLocation: sourceLocation)
        return decoder
    }

    func ffmpegRaw(_ path: String, format: String) throws -> [UInt8] {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let out = dir.path("ref.raw")
        let r = try runTool("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a:0", "-f", format, out])
        guard r.status == 0 else { throw TestDemuxer.Failure(description: "ffmpeg: \(r.stderr)") }
        return try readFile(out)
    }

    @Test func aacInMP4() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "aac.m4a", Self.tone + ["-c:a", "aac", "-b:a", "96k"])
        let d = try check(path, "aac m4a")
        #expect(d.output.sampleFormat == .f32planar)
        #expect(d.statistics.samplesCutBeforeZero == 1024, "priming cut: \(d.statistics)")
    }

    @Test func opusInWebM() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "opus.webm", Self.tone + ["-c:a", "libopus", "-b:a", "64k"])
        // WebM has no negative timestamps here: the file starts at -7 ms (its codec delay) and
        // is rebased to 0 as ffmpeg does; libavcodec's Opus decoder skips the pre-skip itself and
        // moves the first frame's time by it: the first sample is presented at 312.
        let d = try check(path, "opus webm", firstPTS: 312)
        #expect(d.statistics.samplesCutBeforeZero == 0 && d.statistics.samplesCutAtEnd == 648, "\(d.statistics)")
    }

    @Test func opusInOgg() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let d = try check(try makeMedia(dir, "opus.ogg", Self.tone + ["-c:a", "libopus", "-b:a", "64k"]), "opus ogg")
        #expect(d.statistics.samplesCutAtEnd == 648, "end padding: \(d.statistics)")
    }

    @Test func mp3() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        try check(try makeMedia(dir, "a.mp3", Self.tone + ["-c:a", "libmp3lame", "-b:a", "128k"]), "mp3")
    }

    @Test func flac() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let d = try check(try makeMedia(dir, "a.flac", Self.tone + ["-c:a", "flac", "-sample_fmt", "s16"]), "flac")
        #expect(d.output.sampleFormat == .s16)
    }

    @Test func vorbisInOgg() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        try check(try makeMedia(dir, "a.ogg", Self.tone + ["-c:a", "libvorbis", "-q:a", "3"]), "vorbis ogg")
    }

    @Test func ac3InMatroska() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        try check(try makeMedia(dir, "a.mkv", Self.tone + ["-c:a", "ac3", "-b:a", "192k"]), "ac3 mkv")
    }

    @Test func pcmInWAV() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let d = try check(try makeMedia(dir, "a.wav", Self.tone + ["-c:a", "pcm_s16le"]), "pcm wav")
        #expect(d.output.sampleFormat == .s16)
    }

    @Test func pcm24InMOV() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let d = try check(try makeMedia(dir, "a.mov", Self.tone + ["-c:a", "pcm_s24le"]), "pcm s24 mov")
        #expect(d.output.sampleFormat == .s32)
    }
}
