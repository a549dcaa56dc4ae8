#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `hls` sink with `segment-type: mpegts` against ffmpeg's own `-f hls` (MPEG-TS segments,
/// its default) over the same packets, ffmpeg's HLS demuxer reading our playlist, and ffprobe
/// reading each segment alone. The reference packets are the same encoders' output muxed by our
/// `mp4` sink in the same run.
@Suite struct HLSTransportStreamTests {
    /// testsrc (30 fps) → `codec` (key frame every `keyint`), sine → aac, into an `hls` sink with
    /// MPEG-TS segments (dir/out.m3u8, `params` added) and an `mp4` sink (dir/ours.mp4).
    static func encode(in dir: String, codec: String = "h264", frames: Int = 210, keyint: Int = 45, params: String = "") throws -> CLI.Result {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
                     "venc": { "type": "\(codec)", "params": { "preset": "veryfast", "keyint": \(keyint) } },
                     "tone": { "type": "sine", "params": { "seconds": \(Double(frames) / 30) } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8", "segment-type": "mpegts"\(params) } } },
          "chains": [["src", "venc", "hls.video"], ["venc", "mp4.video"], ["tone", "aenc", "hls.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// ffmpeg's own HLS of our mp4's packets: `-c copy -f hls -hls_time 2` (MPEG-TS segments).
    static func ffmpegHLS(_ mp4: String, in dir: String, seconds: String = "2") throws {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", mp4, "-c", "copy", "-f", "hls", "-hls_time", seconds,
                                       "-hls_playlist_type", "vod", "-hls_segment_filename", dir + "/ref%d.ts", dir + "/ref.m3u8"])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    /// Key frames every 1.5 s, 2 s segments (and key frames every second, 1 s segments): the
    /// segments are ffmpeg's, byte for byte (each starts with PAT and PMT; continuity counters
    /// and timestamps run on across segments), and the playlist says what ffmpeg's says:
    /// version 3, no EXT-X-MAP, the same durations.
    @Test(arguments: [("h264", 45, "2"), ("hevc", 30, "1")])
    func segmentsAreFFmpegsSegments(_ codec: String, _ keyint: Int, _ seconds: String) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec: codec, keyint: keyint, params: #", "segment-duration": \#(seconds)"#)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegHLS(dir + "/ours.mp4", in: dir, seconds: seconds)
        let ours = HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/out.m3u8"))
        let theirs = HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/ref.m3u8"))
        #expect(ours.count == theirs.count && ours.count > 2, "ours \(ours.map(\.seconds)), ffmpeg's \(theirs.map(\.seconds))")
        // ffmpeg's last #EXTINF is a running sum that can be off (HEVC here: 1.133333 s for 30
        // pictures); ours is the pictures' duration, which the next test checks with ffprobe
        #expect(ours.dropLast().map(\.seconds) == theirs.dropLast().map(\.seconds), "ours \(ours.map(\.seconds)), ffmpeg's \(theirs.map(\.seconds))")
        #expect(ours.map(\.uri) == (0..<ours.count).map { "out\($0).ts" })
        for (k, (a, b)) in zip(ours, theirs).enumerated() {
            let x = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + a.uri))
            let y = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + b.uri))
            #expect(!x.isEmpty && x == y, "segment \(k): first difference: \(MPEGTSSinkTests.firstDifference(x, y))")
        }
        let lines = try HLSSinkTests.lines(dir + "/out.m3u8")
        #expect(lines.contains("#EXT-X-VERSION:3") && !lines.contains { $0.hasPrefix("#EXT-X-MAP") }, "\(lines)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out_init.mp4"))
    }

    /// ffmpeg's HLS demuxer reads our playlist: every picture decodes as our mp4's does, with no
    /// message; each segment read alone by ffprobe starts with a key frame and holds audio.
    @Test func ffmpegReadsThePlaylistAndEachSegmentStartsWithAKeyFrame() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let a = try MPEGTSSinkTests.pictures(dir + "/out.m3u8"), b = try MPEGTSSinkTests.pictures(dir + "/ours.mp4")
        #expect(a.count == 210 && a == b, "\(a.count) pictures through the playlist, \(b.count) from the mp4")
        let segments = HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/out.m3u8"))
        #expect(segments.count == 4, "\(segments)")
        for (k, s) in segments.enumerated() {
            let rows = try MatroskaSinkTests.ffprobe(["-show_entries", "packet=codec_type,flags", "-of", "csv=p=0", dir + "/" + s.uri]).split(separator: "\n")
            let video = rows.filter { $0.hasPrefix("video") }
            #expect(video.first?.hasPrefix("video,K") == true, "segment \(k) starts with \(video.first ?? "nothing")")
            #expect(rows.contains { $0.hasPrefix("audio") }, "segment \(k) has no audio")
            let seconds = Double(video.count) / 30
            #expect(abs(seconds - s.seconds) < 0.001, "segment \(k): \(video.count) pictures, #EXTINF says \(s.seconds)")
        }
    }

    /// A read-only directory: exit 1 naming the node, the file and the reason, and no file. A
    /// full disk: VOD removes every file it wrote; EVENT keeps its playlist and the complete
    /// segments it lists and leaves no half-written file.
    @Test func unwritableDirectoryAndFullDiskFailCleanly() throws {
        for (flags, size, kind) in [(UInt(MS_RDONLY), "64k", "vod"), (0, "256k", "vod"), (0, "256k", "event")] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 600 } },
                         "enc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "hls": { "type": "hls", "params": { "path": "\(out)/s.m3u8", "segment-duration": 0.5, "playlist-type": "\(kind)", "segment-type": "mpegts" } } },
              "chains": [["src", "enc", "hls.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            #expect(r.stderr.contains("error: node 'hls' (hls): ") && r.stderr.contains(out + "/s") && r.stderr.contains(reason), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            if kind == "vod" {
                #expect(left.isEmpty, "\(left)")
            } else {
                let lines = try HLSSinkTests.lines(out + "/s.m3u8")
                let listed = HLSSinkTests.segments(lines).map(\.uri)
                #expect(!listed.isEmpty && !lines.contains("#EXT-X-ENDLIST"), "\(lines)")
                #expect(left == (["s.m3u8"] + listed).sorted(), "\(left)")
                #expect(r.stderr.contains("kept '\(out)/s.m3u8' with the \(listed.count) complete segments written"), "\(r.stderr)")
                for uri in listed {
                    let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out + "/" + uri, "-f", "null", "-"])
                    #expect(check.status == 0 && check.stderr.isEmpty, "\(uri): \(check.stderr)")
                }
            }
        } }
    }

    /// SIGKILL in the middle of an EVENT stream: the playlist lists only complete segments,
    /// each of which ffmpeg decodes without a message.
    @Test func sigkillLeavesOnlyCompleteSegmentsListed() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "enc": { "type": "h264", "params": { "preset": "ultrafast", "keyint": 15 } },
                     "hls": { "type": "hls", "params": { "path": "live.m3u8", "segment-duration": 0.5, "playlist-type": "event", "segment-type": "mpegts" } } },
          "chains": [["src", "enc", "hls.video"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardError = FileHandle.nullDevice
        try p.run()
        CLI.waitForOutput(in: dir, prefix: "live3.ts")
        Thread.sleep(forTimeInterval: 0.3) // in the middle of a later segment
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let lines = try HLSSinkTests.lines(dir + "/live.m3u8")
        let listed = HLSSinkTests.segments(lines).map(\.uri)
        #expect(listed.count >= 3 && !lines.contains("#EXT-X-ENDLIST"), "\(lines)")
        for uri in listed {
            let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/" + uri, "-f", "null", "-"])
            #expect(check.status == 0 && check.stderr.isEmpty, "\(uri): \(check.stderr)")
        }
    }
}
