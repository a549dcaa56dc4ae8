import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// What a QuickTime movie refuses, with the error a person can act on, and nothing left at the
/// output path.
@Suite struct QuickTimeMuxerErrorTests {
    let quickTime: MP4MuxerOptions = {
        var o = MP4MuxerOptions()
        o.quickTime = true
        return o
    }()

    /// PCM packets are whole sample frames: a stray byte would shift every later sample.
    @Test func pcmPacketOfPartialFramesIsRefused() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let out = dir.file("out.mov")
        let m = try MP4Muxer(path: out, options: quickTime)
        let t = try m.addAudioTrack(codec: Codec("pcm_s24le", kind: .audio), sampleRate: 48000, channels: 2)
        try m.append(MP4Sample(data: [UInt8](repeating: 0, count: 12), pts: 0, duration: 2, isSync: true), to: t)
        let e = #expect(throws: MP4MuxerError.self) {
            try m.append(MP4Sample(data: [UInt8](repeating: 0, count: 13), pts: 2, isSync: true), to: t)
        }
        #expect(e?.description == "mp4 muxer: track 1 (audio pcm_s24le): sample 1: 13 bytes are not whole sample frames of 6 bytes (2 channels of pcm_s24le)")
        #expect(m.state == .failed)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// ProRes and PCM only in a QuickTime movie; ProRes only with its profile's code.
    @Test func proresAndPCMNeedAMovieAndProResItsProfile() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let mp4 = try MP4Muxer(path: dir.file("out.mp4"))
        var e = #expect(throws: MP4MuxerError.self) {
            _ = try mp4.addVideoTrack(codec: .prores, width: 64, height: 48, timescale: 12800, codecTag: "apch")
        }
        #expect(e?.description == "mp4 muxer: track 1 (video prores): ProRes is written only into a QuickTime movie (name the output .mov)")
        e = #expect(throws: MP4MuxerError.self) {
            _ = try mp4.addAudioTrack(codec: Codec("pcm_s16le", kind: .audio), sampleRate: 48000, channels: 2)
        }
        #expect(e?.description == "mp4 muxer: track 1 (audio pcm_s16le): uncompressed sound (pcm_s16le) is written only into a QuickTime movie (name the output .mov)")
        mp4.cancel()
        let mov = try MP4Muxer(path: dir.file("out.mov"), options: quickTime)
        e = #expect(throws: MP4MuxerError.self) {
            _ = try mov.addVideoTrack(codec: .prores, width: 64, height: 48, timescale: 12800)
        }
        #expect(e?.description.contains("a ProRes track needs its profile's four-character code (one of apco, apcs, apcn, apch, ap4h, ap4x), found none") == true)
        e = #expect(throws: MP4MuxerError.self) {
            _ = try mov.addVideoTrack(codec: .vp9, width: 64, height: 48, timescale: 12800, configuration: .vpx(VPXConfiguration(codec: .vp9)))
        }
        #expect(e?.description.contains("a QuickTime movie is written with h264, hevc, prores, aac or PCM sound; for vp9 name the output .mp4") == true)
        mov.cancel()
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? ["?"]).isEmpty)
    }
}
