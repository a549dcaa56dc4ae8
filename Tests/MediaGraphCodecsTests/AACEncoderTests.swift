import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Power of `frequency` in `signal` (Goertzel).
func power(of frequency: Double, in signal: ArraySlice<Float>, sampleRate: Double) -> Double {
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var s1 = 0.0, s2 = 0.0
    for x in signal {
        let s0 = Double(x) + coefficient * s1 - s2
        s2 = s1
        s1 = s0
    }
    return s1 * s1 + s2 * s2 - coefficient * s1 * s2
}

@Suite struct AACEncoderTests {
    @Test func sineDecodesToItsFrequencyAndDuration() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let rate = 48000, channels = 2, total = 48000
        let encoder = try AACEncoder(settings: AACSettings(bitrate: 128), sampleRate: rate, channels: channels)
        guard case .aac(let config) = encoder.configuration else { Issue.record("not aac"); return }
        // AudioSpecificConfig (ISO/IEC 14496-3 1.6.2.1): 5 bits object type 2 (LC), 4 bits
        // frequency index 3 (48 kHz), 4 bits channel configuration 2, then flags (and
        // libavcodec's explicit no-SBR extension).
        #expect(config.audioSpecificConfig.prefix(2) == [0x11, 0x90])
        #expect(config.sampleRate == 48000 && config.channels == 2 && config.objectType == 2)

        let sine = (0..<total).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        var packets: [EncodedPacket] = []
        let chunkSizes = [700, 333, 1024, 1500, 1, 4096]
        var start = 0, k = 0
        try sine.withUnsafeBufferPointer { all in
            while start < total {
                let n = min(chunkSizes[k % chunkSizes.count], total - start)
                let p = all.baseAddress! + start
                packets += try encoder.encode([p, p], count: n)
                start += n
                k += 1
            }
        }
        packets += try encoder.flush()

        #expect(encoder.primingSamples == 1024)
        #expect(packets.first?.pts == -Int64(encoder.primingSamples))
        #expect(packets.last.map { $0.pts + $0.duration } == Int64(total), "packets end with the input")
        for (a, b) in zip(packets, packets.dropFirst()) { #expect(a.pts + a.duration == b.pts) }
        #expect(packets.count == (total + encoder.primingSamples + 1023) / 1024)

        try writeFile(dir.path("ours.aac"), ElementaryStream.adts(packets, sampleRateIndex: 3, channels: channels))
        let probe = try probeStream(dir.path("ours.aac"))
        #expect(probe["codec_name"] == "aac" && probe["profile"] == "LC")
        #expect(probe["sample_rate"] == "48000" && probe["channels"] == "2")
        #expect(try decodeErrors(dir.path("ours.aac")) == "")

        let r = try runTool("ffmpeg", ["-v", "error", "-i", dir.path("ours.aac"), "-ac", "1", "-f", "f32le", dir.path("out.raw")])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try readFile(dir.path("out.raw"))
        let decoded = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        // ADTS carries no edit list: the decoder's output includes the priming samples.
        let duration = decoded.count - encoder.primingSamples
        #expect(abs(duration - total) <= 1024, "decoded \(duration) samples for \(total)")

        let middle = decoded[4096..<(4096 + 24000)]
        let candidates = stride(from: 200.0, through: 5000.0, by: 50.0)
        let strongest = candidates.max { power(of: $0, in: middle, sampleRate: 48000) < power(of: $1, in: middle, sampleRate: 48000) }
        #expect(strongest == 1000)
    }

    /// Frame payloads of an ADTS stream (headers stripped).
    static func adtsFrames(_ bytes: [UInt8]) -> [[UInt8]] {
        var frames: [[UInt8]] = []
        var i = 0
        while i + 7 <= bytes.count, bytes[i] == 0xFF, bytes[i + 1] & 0xF0 == 0xF0 {
            let headerSize = bytes[i + 1] & 1 == 1 ? 7 : 9
            let length = (Int(bytes[i + 3] & 3) << 11) | (Int(bytes[i + 4]) << 3) | Int(bytes[i + 5] >> 5)
            guard length >= headerSize, i + length <= bytes.count else { break }
            frames.append(Array(bytes[(i + headerSize)..<(i + length)]))
            i += length
        }
        return frames
    }

    @Test func sameBytesAsFFmpegAACOnTheSameSamples() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let rate = 44100, total = 30000
        let left = (0..<total).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        let right = (0..<total).map { Float(0.3 * sin(2 * Double.pi * 1500 * Double($0) / Double(rate))) }
        let encoder = try AACEncoder(settings: AACSettings(bitrate: 96), sampleRate: rate, channels: 2)
        var packets: [EncodedPacket] = []
        var start = 0
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in
                while start < total {
                    let n = min(777, total - start)
                    packets += try encoder.encode([l.baseAddress! + start, r.baseAddress! + start], count: n)
                    start += n
                }
            }
        }
        packets += try encoder.flush()
        var interleaved: [Float] = []
        for i in 0..<total { interleaved += [left[i], right[i]] }
        try writeFile(dir.path("in.raw"), interleaved.withUnsafeBytes { Array($0) })
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "f32le", "-ar", "\(rate)", "-ac", "2", "-i", dir.path("in.raw"),
                                       "-c:a", "aac", "-b:a", "96k", "-f", "adts", dir.path("ref.aac")])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = Self.adtsFrames(try readFile(dir.path("ref.aac")))
        expectSameFrames(packets, reference)
    }

    /// The SampleBuffer layouts (s16 and f32 interleaved, f32 planar bytes) against ffmpeg fed
    /// the same s16 samples: libswresample turns s16 into x / 32768, as we do.
    @Test func sampleBufferLayoutsMatchFFmpeg() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let rate = 48000, channels = 2, total = 20000
        var s16: [Int16] = []
        for i in 0..<total {
            s16.append(Int16(12000 * sin(2 * Double.pi * 440 * Double(i) / Double(rate))))
            s16.append(Int16(8000 * sin(2 * Double.pi * 3000 * Double(i) / Double(rate))))
        }
        let f32 = s16.map { Float($0) / 32768 }
        var planar = [Float](repeating: 0, count: total * channels)
        for i in 0..<total { planar[i] = f32[2 * i]; planar[total + i] = f32[2 * i + 1] }

        try writeFile(dir.path("in.raw"), s16.withUnsafeBytes { Array($0) })
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "s16le", "-ar", "\(rate)", "-ac", "2", "-i", dir.path("in.raw"),
                                       "-c:a", "aac", "-b:a", "128k", "-f", "adts", dir.path("ref.aac")])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = Self.adtsFrames(try readFile(dir.path("ref.aac")))

        for format in [SampleFormat.s16, .f32, .f32planar] {
            let encoder = try AACEncoder(settings: AACSettings(bitrate: 128), sampleRate: rate, channels: channels)
            var packets: [EncodedPacket] = []
            switch format {
            case .s16:
                try s16.withUnsafeBytes { packets += try encoder.encode(bytes: $0, format: .s16, sampleCount: total) }
            case .f32:
                try f32.withUnsafeBytes { packets += try encoder.encode(bytes: $0, format: .f32, sampleCount: total) }
            case .f32planar:
                try planar.withUnsafeBytes { packets += try encoder.encode(bytes: $0, format: .f32planar, sampleCount: total) }
            default:
                Issue.record("not an input format of the encoder: \(format)")
            }
            packets += try encoder.flush()
            expectSameFrames(packets, reference)
        }
        let encoder = try AACEncoder(settings: AACSettings(), sampleRate: rate, channels: channels)
        expectMessage("aac: at sample 0: 10 samples of 2 channels s16 need 40 bytes, found 4") {
            _ = try [Int16](repeating: 0, count: 2).withUnsafeBytes { try encoder.encode(bytes: $0, format: .s16, sampleCount: 10) }
        }
    }
}
