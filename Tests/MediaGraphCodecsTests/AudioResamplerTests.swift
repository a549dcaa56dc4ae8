import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// libswresample through AudioResampler equals ffmpeg's own conversion of the same samples.
@Suite struct AudioResamplerTests {
    /// Converts a f32 stereo 48 kHz file in uneven chunks; compares with ffmpeg's -f/-ar/-ac.
    func compare(to target: AudioFormat, ffmpegArgs: [String], rawFormat: String) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let input = try makeMedia(dir, "in.wav", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                                                 "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=1",
                                                 "-filter_complex", "[0:a][1:a]amerge=inputs=2[a]", "-map", "[a]", "-c:a", "pcm_f32le"])
        let samples = try readFile(input).suffix(48000 * 8)
        let source = AudioFormat(sampleFormat: .f32, sampleRate: 48000, channels: 2, channelLayout: .stereo)
        let resampler = try AudioResampler(from: source, to: target)
        var ours: [UInt8] = []
        var offset = 0
        let chunks = [1000, 37, 4096, 1, 2000]
        var k = 0
        var planar: [[UInt8]] = []
        func append(_ r: (bytes: [UInt8], sampleCount: Int)) {
            if target.sampleFormat.isPlanar {
                planar.append(r.bytes)
                // interleave for the comparison
                let bps = target.sampleFormat.bytesPerSample, n = r.sampleCount
                for i in 0..<n { for c in 0..<target.channels { ours += r.bytes[(c * n + i) * bps ..< (c * n + i + 1) * bps] } }
            } else {
                ours += r.bytes
            }
        }
        let all = Array(samples)
        while offset < 48000 {
            let n = min(chunks[k % chunks.count], 48000 - offset)
            k += 1
            append(try resampler.convert(bytes: Array(all[offset * 8 ..< (offset + n) * 8]), sampleCount: n))
            offset += n
        }
        append(try resampler.flush())
        let out = dir.path("ref.raw")
        let r = try runTool("ffmpeg", ["-v", "error", "-i", input] + ffmpegArgs + ["-f", rawFormat, out])
        #expect(r.status == 0, "\(r.stderr)")
        let theirs = try readFile(out)
        #expect(ours.count == theirs.count, "\(ours.count) bytes, ffmpeg \(theirs.count)")
        #expect(firstDifference(ours, theirs) == nil)
    }

    @Test func sampleFormatOnly() throws {
        try compare(to: AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 2, channelLayout: .stereo),
                    ffmpegArgs: [], rawFormat: "s16le")
    }

    @Test func rateAndDownmix() throws {
        try compare(to: AudioFormat(sampleFormat: .s16planar, sampleRate: 44100, channels: 1, channelLayout: .mono),
                    ffmpegArgs: ["-ar", "44100", "-ac", "1"], rawFormat: "s16le")
    }

    @Test func upsampleToFloat() throws {
        try compare(to: AudioFormat(sampleFormat: .f32planar, sampleRate: 96000, channels: 2),
                    ffmpegArgs: ["-ar", "96000"], rawFormat: "f32le")
    }

    @Test func refusesALayoutOfAnotherChannelCount() throws {
        #expect(throws: CodecError.self) {
            _ = try AudioResampler(from: AudioFormat(sampleFormat: .f32, sampleRate: 48000, channels: 2),
                                   to: AudioFormat(sampleFormat: .f32, sampleRate: 48000, channels: 2, channelLayout: .surround51))
        }
    }

    /// Mono to 64 channels of no layout: libswresample cannot know where the channel goes and
    /// refuses, saying why only through av_log. The error carries its words (before, they went
    /// to stderr as a stray "[SWR @ 0x…]" line and the error said only "Invalid argument").
    @Test func aRefusalCarriesLibswresamplesReason() throws {
        do {
            _ = try AudioResampler(from: AudioFormat(sampleFormat: .f32planar, sampleRate: 48000, channels: 1, channelLayout: .mono),
                                   to: AudioFormat(sampleFormat: .f32planar, sampleRate: 48000, channels: 64))
            Issue.record("converted mono to 64 channels of no layout")
        } catch let error as CodecError {
            #expect("\(error)".contains("Rematrix is needed between mono and 64 channels"), "\(error)")
        }
    }
}
