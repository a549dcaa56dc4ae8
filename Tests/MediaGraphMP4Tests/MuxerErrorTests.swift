#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Bad input to the muxer: exact errors, and nothing left at the output path.
@Suite struct MuxerErrorTests {
    let vp9 = CodecConfiguration.vpx(VPXConfiguration(codec: .vp9))
    let aac = CodecConfiguration.aac(AACConfiguration(audioSpecificConfig: [0x11, 0x90], sampleRate: 48000, channels: 2))

    @Test func decodeOrder() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let out = dir.file("out.mp4")
        let m = try MP4Muxer(path: out)
        let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
        try m.append(MP4Sample(data: [1, 2, 3], pts: 0, isSync: true), to: t)
        try m.append(MP4Sample(data: [1, 2, 3], pts: 1, isSync: false), to: t)
        let e = #expect(throws: MP4MuxerError.self) { try m.append(MP4Sample(data: [1], pts: 1, isSync: false), to: t) }
        #expect(e?.description == "mp4 muxer: track 1 (video vp9): sample 2 is out of decode order: dts 1 after dts 1 (decode timestamps must increase)")
        #expect(m.state == .failed)
        #expect(throws: MP4MuxerError.self) { try m.finish() }
        #expect(!fileExists(out))
        #expect(listing(dir.path).isEmpty)
    }

    @Test func missingConfiguration() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let out = dir.file("out.mp4")
        let m = try MP4Muxer(path: out)
        let t = try m.addVideoTrack(codec: .h264, width: 64, height: 64, timescale: 25)
        // Length-prefixed sample without SPS/PPS anywhere.
        let e = #expect(throws: MP4MuxerError.self) {
            try m.append(MP4Sample(data: [0, 0, 0, 2, 0x65, 0x88], pts: 0, isSync: true), to: t)
        }
        #expect(e?.description == "mp4 muxer: track 1 (video h264): no codec configuration (parameter sets / AudioSpecificConfig) in addTrack, the first sample, or the first sample's data")
        #expect(listing(dir.path).isEmpty)
    }

    @Test func trackWithoutSamples() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let out = dir.file("out.mp4")
        let m = try MP4Muxer(path: out, options: MP4MuxerOptions(fastStart: false))
        let v = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
        _ = try m.addAudioTrack(codec: .aac, sampleRate: 48000, channels: 2, configuration: aac)
        for i in 0..<10 { try m.append(MP4Sample(data: [UInt8](repeating: 7, count: 100), pts: Int64(i), isSync: i == 0), to: v) }
        let e = #expect(throws: MP4MuxerError.self) { try m.finish() }
        #expect(e?.description == "mp4 muxer: track 2 (audio aac) never received a sample")
        #expect(listing(dir.path).isEmpty)
    }

    @Test func unwritableDirectory() throws {
        let e = #expect(throws: MP4MuxerError.self) { _ = try MP4Muxer(path: "/nonexistent-dir/sub/out.mp4") }
        #expect(e?.description == "mp4 muxer: cannot create /nonexistent-dir/sub/out.mp4: No such file or directory")

        let dir = try TempDir()
        defer { dir.remove() }
        guard mount("tmpfs", dir.path, "tmpfs", UInt(MS_RDONLY), "size=64k") == 0 else {
            Issue.record("mounting a read-only tmpfs needs root: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount(dir.path) }
        let ro = #expect(throws: MP4MuxerError.self) { _ = try MP4Muxer(path: dir.file("out.mp4")) }
        #expect(ro?.description.hasSuffix(": Read-only file system") == true)
    }

    /// A 1 MiB tmpfs fills up: the error says so, and neither the output nor temporary files
    /// remain.
    @Test(arguments: [true, false])
    func fullDisk(fastStart: Bool) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        guard mount("tmpfs", dir.path, "tmpfs", 0, "size=1m") == 0 else {
            Issue.record("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount(dir.path) }
        let out = dir.file("out.mp4")
        let m = try MP4Muxer(path: out, options: MP4MuxerOptions(fastStart: fastStart))
        let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
        let payload = [UInt8](repeating: 0x5A, count: 100_000)
        var failure: MP4MuxerError?
        do {
            for i in 0..<40 { try m.append(MP4Sample(data: payload, pts: Int64(i), isSync: true), to: t) }
            try m.finish()
        } catch let e as MP4MuxerError {
            failure = e
        }
        let text = failure?.description ?? "no error"
        #expect(text.contains("No space left on device (the disk is full)"), "\(text)")
        #expect(text.contains(" at byte "), "\(text)")
        if !fastStart { // fast start may also fail while copying the media behind the moov
            #expect(text.hasPrefix("mp4 muxer: track 1 (video vp9): sample "), "\(text)")
        }
        #expect(m.state == .failed)
        #expect(listing(dir.path).isEmpty, "\(listing(dir.path))")
    }

    @Test func cancelLeavesNothing() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        for options in [MP4MuxerOptions(), MP4MuxerOptions(fastStart: false), MP4MuxerOptions(fragmented: true)] {
            let m = try MP4Muxer(path: dir.file("out.mp4"), options: options)
            let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
            for i in 0..<60 { try m.append(MP4Sample(data: [1, 2, 3], pts: Int64(i), isSync: i % 10 == 0), to: t) }
            m.cancel()
            #expect(m.state == .cancelled)
            #expect(listing(dir.path).isEmpty)
        }
    }
}
