#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `hls` sink against independent readers: ffmpeg's HLS demuxer reading our playlist,
/// ffprobe on each segment behind the init segment, ffmpeg's own `-f hls` output of the same
/// key-frame spacing (segment lengths), and Chromium playing init + segments. Inputs are made
/// by our encoders inside the tests; the reference packets are the same encoders' output muxed
/// by our `mp4` sink in the same run.
@Suite struct HLSSinkTests {
    /// testsrc (30 fps) → `codec` with a key frame every `keyint` frames, sine → aac, into both an
    /// `hls` sink (dir/out.m3u8, `params` added) and an `mp4` sink (dir/ours.mp4).
    static func encode(in dir: String, codec: String = "h264", frames: Int = 210, keyint: Int = 45,
                       params: String = "", width: Int = 320, height: Int = 240) throws -> CLI.Result {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": \(width), "height": \(height), "frames": \(frames) } },
                     "venc": { "type": "\(codec)", "params": { "preset": "veryfast", "keyint": \(keyint) } },
                     "tone": { "type": "sine", "params": { "seconds": \(Double(frames) / 30) } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8"\(params) } } },
          "chains": [["src", "venc", "hls.video"], ["venc", "mp4.video"], ["tone", "aenc", "hls.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// The playlist's lines.
    static func lines(_ playlist: String) throws -> [String] {
        try String(contentsOfFile: playlist, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// (#EXTINF seconds, URI) of each segment.
    static func segments(_ lines: [String]) -> [(seconds: Double, uri: String)] {
        var out: [(Double, String)] = []
        for (k, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") && k + 1 < lines.count {
            out.append((Double(line.dropFirst(8).dropLast())!, lines[k + 1]))
        }
        return out
    }

    /// Packets of one stream, times made relative to its first dts (ffmpeg's HLS demuxer and
    /// MP4 demuxer start the streams at different offsets): dts, pts, duration, size, MD5.
    static func relative(_ lines: [String], stream: String) -> [[String]] {
        let rows = MatroskaSinkTests.fields(lines).filter { $0.first == stream }
        guard let first = rows.first.flatMap({ Int($0[1]) }) else { return [] }
        return rows.map { [String(Int($0[1])! - first), String(Int($0[2])! - first)] + Array($0[3...5]) }
    }

    /// ffmpeg's HLS demuxer reads the playlist: every video and audio packet (relative times,
    /// duration, size, MD5) equal to the same encoders' packets in our mp4 file, and every
    /// picture decodes; for H.264 and HEVC.
    @Test(arguments: ["h264", "hevc"])
    func ffmpegReadsEveryPacketThroughThePlaylist(_ codec: String) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec: codec)
        #expect(r.status == 0, "\(r.stderr)")
        let hls = try MatroskaSinkTests.framemd5(["-i", dir + "/out.m3u8", "-c", "copy"])
        let mp4 = try MatroskaSinkTests.framemd5(["-i", dir + "/ours.mp4", "-c", "copy"])
        for stream in ["0", "1"] {
            var a = Self.relative(hls, stream: stream), b = Self.relative(mp4, stream: stream)
            #expect(a.count == b.count && a.count > 0, "stream \(stream): \(a.count) packets through the playlist, \(b.count) in the mp4")
            if stream == "1" && a.count == b.count && a.count > 0 {
                // The plain mp4's edit list ends the sound at 7 s, 128 samples into the last AAC
                // frame, and ffmpeg shortens that packet; a fragmented file cannot say where the
                // stream ends (ffmpeg's own fMP4 HLS neither), so there it lasts its 1024.
                #expect(a[a.count - 1][2] == "1024" && b[b.count - 1][2] == "128", "\(a.last!) \(b.last!)")
                a[a.count - 1][2] = "-"
                b[b.count - 1][2] = "-"
            }
            #expect(a == b, "stream \(stream): first difference at \(Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? -1)")
        }
        #expect(Self.relative(hls, stream: "0").count == 210)
        // the HLS demuxer lists the stream twice (in its program and on its own)
        let decoded = try MatroskaSinkTests.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                                     "-of", "csv=p=0", dir + "/out.m3u8"])
        #expect(Set(decoded.split(separator: "\n")) == ["210"], "\(decoded)")
    }

    /// Key frames every 1.5 s and 2 s segments: the same segment lengths as ffmpeg's own
    /// `-f hls -hls_time 2 -hls_segment_type fmp4` (3, 1.5, 1.5, 1), each segment (init +
    /// segment to ffprobe) starting with a key frame and as long as its #EXTINF says, within a
    /// millisecond, and TARGETDURATION the longest rounded to the nearest (ffmpeg's lrint).
    @Test func segmentsStartAtKeyFramesAndLastWhatThePlaylistSays() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = Self.segments(try Self.lines(dir + "/out.m3u8"))

        let ref = CLI.tempDir()
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-f", "lavfi", "-i", "sine",
                                       "-t", "7", "-c:v", "libx264", "-g", "45", "-c:a", "aac", "-f", "hls", "-hls_time", "2",
                                       "-hls_segment_type", "fmp4", "-hls_playlist_type", "vod", ref + "/ref.m3u8"])
        #expect(f.status == 0, "\(f.stderr)")
        let theirs = Self.segments(try Self.lines(ref + "/ref.m3u8"))
        #expect(ours.map(\.seconds) == theirs.map(\.seconds), "ours \(ours.map(\.seconds)), ffmpeg's \(theirs.map(\.seconds))")
        #expect(ours.map(\.uri) == (0..<ours.count).map { "out\($0).m4s" })

        let lines = try Self.lines(dir + "/out.m3u8")
        let target = lines.first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.map { Int($0.dropFirst(22)) }
        #expect(target == Int((ours.map(\.seconds).max() ?? 0).rounded(.toNearestOrEven)), "\(lines)")

        let initBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/out_init.mp4"))
        for (k, s) in ours.enumerated() {
            let joined = dir + "/joined\(k).mp4"
            try (initBytes + Data(contentsOf: URL(fileURLWithPath: dir + "/" + s.uri))).write(to: URL(fileURLWithPath: joined))
            let rows = try MatroskaSinkTests.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=duration_time,flags",
                                                      "-of", "csv=p=0", joined]).split(separator: "\n")
            #expect(rows.first?.hasSuffix("K_") == true, "segment \(k) starts with \(rows.first ?? "nothing")")
            let seconds = rows.compactMap { Double($0.split(separator: ",")[0]) }.reduce(0, +)
            #expect(abs(seconds - s.seconds) < 0.001, "segment \(k): packets last \(seconds) s, #EXTINF says \(s.seconds)")
        }
    }

    /// The playlist line by line as RFC 8216 has it: the header tags in order, an #EXTINF before
    /// each URI, #EXT-X-ENDLIST last, and the durations summing to the video stream's.
    @Test func playlistFollowsRFC8216() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, frames: 150, keyint: 30, params: #", "segment-duration": 1"#)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try Self.lines(dir + "/out.m3u8")
        #expect(Array(lines.prefix(7)) == ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:1", "#EXT-X-MEDIA-SEQUENCE:0",
                                           "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-INDEPENDENT-SEGMENTS", ##"#EXT-X-MAP:URI="out_init.mp4""##],
                "\(lines)")
        #expect(lines.suffix(2) == ["#EXT-X-ENDLIST", ""], "the file ends with #EXT-X-ENDLIST and a newline")
        let body = lines.dropFirst(7).dropLast(2)
        #expect(body.count == 10, "\(lines)")
        for (k, line) in body.enumerated() {
            if k % 2 == 0 {
                #expect(line.wholeMatch(of: /#EXTINF:[0-9]+\.[0-9]{6},/) != nil, "line \(k + 8): \(line)")
            } else {
                #expect(line == "out\(k / 2).m4s" && FileManager.default.fileExists(atPath: dir + "/" + line), "line \(k + 8): \(line)")
            }
        }
        let total = Self.segments(lines).map(\.seconds).reduce(0, +)
        let video = try MatroskaSinkTests.ffprobe(["-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", dir + "/ours.mp4"])
        #expect(abs(total - (Double(video.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)) < 0.001, "#EXTINF sum \(total), video \(video)")
    }

    /// Init + every segment, concatenated, is an MP4 that Chromium plays to the end, every frame.
    @Test func chromiumPlaysInitAndSegmentsJoined() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        var joined = try Data(contentsOf: URL(fileURLWithPath: dir + "/out_init.mp4"))
        for s in Self.segments(try Self.lines(dir + "/out.m3u8")) { joined += try Data(contentsOf: URL(fileURLWithPath: dir + "/" + s.uri)) }
        try joined.write(to: URL(fileURLWithPath: dir + "/all.mp4"))
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/all.mp4", "--min-frames", "210"])
        #expect(play.status == 0, "\(play.out) \(play.stderr)")
        #expect(play.out.contains(#""totalVideoFrames": 210"#), "\(play.out)")
    }

    /// Starts a long job writing an `event` playlist (0.5 s segments of 640x360 testsrc) and
    /// returns it with the first playlist read while it runs, which must be complete (header,
    /// EVENT, no ENDLIST, every listed segment there) and list at least one segment.
    static func startEventJob(in dir: String) throws -> (Process, [(seconds: Double, uri: String)]) {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 640, "height": 360, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "hls": { "type": "hls", "params": { "path": "live.m3u8", "playlist-type": "event", "segment-duration": 0.5 } } },
          "chains": [["src", "venc", "hls.video"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var seen: String?
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline {
            if let text = try? String(contentsOfFile: dir + "/live.m3u8", encoding: .utf8) {
                seen = text
                break
            }
            usleep(10_000)
        }
        guard let early = seen else {
            kill(p.processIdentifier, SIGKILL)
            throw CancellationError()
        }
        #expect(early.hasPrefix("#EXTM3U\n") && early.hasSuffix("\n") && early.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"), "\(early)")
        #expect(!early.contains("#EXT-X-ENDLIST"), "\(early)")
        let listed = Self.segments(early.split(separator: "\n").map(String.init))
        #expect(!listed.isEmpty && listed.allSatisfy { FileManager.default.fileExists(atPath: dir + "/" + $0.uri) }, "\(early)")
        Thread.sleep(forTimeInterval: 0.5)
        return (p, listed)
    }

    /// Pictures ffprobe decodes through a playlist, and those its #EXTINF durations add up to (30 fps).
    static func decodedAndListed(_ playlist: String) throws -> (decoded: Set<Substring>, listed: Int) {
        let seconds = Self.segments(try Self.lines(playlist)).map(\.seconds).reduce(0, +)
        let decoded = try MatroskaSinkTests.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                                     "-of", "csv=p=0", playlist])
        return (Set(decoded.split(separator: "\n")), Int((seconds * 30).rounded()))
    }

    /// `event`: the playlist is there, complete, while the job still runs; Ctrl-C then ends the
    /// run in order, and the final playlist says EVENT, ends with ENDLIST, keeps what it listed
    /// and lists every picture made (ffprobe decodes them).
    @Test func eventPlaylistIsReadableWhileRunningAndEndsOnCtrlC() throws {
        let dir = CLI.tempDir()
        let (p, listed) = try Self.startEventJob(in: dir)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let final = try Self.lines(dir + "/live.m3u8")
        #expect(final.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && !final.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(final.suffix(2) == ["#EXT-X-ENDLIST", ""])
        let all = Self.segments(final)
        #expect(all.count > listed.count && Array(all.prefix(listed.count)).map(\.uri) == listed.map(\.uri), "\(final)")
        let (decoded, pictures) = try Self.decodedAndListed(dir + "/live.m3u8")
        #expect(decoded == [Substring(String(pictures))], "\(decoded) pictures decoded, \(pictures) listed")
    }

    /// A killed job (SIGKILL: nothing runs after it) leaves an `event` playlist that lists only
    /// whole segments, all there, every picture of them decodable, and no other file but the
    /// segment being written when it was killed (never half of one: it had no name yet).
    @Test func killedEventJobLeavesAPlayablePlaylist() throws {
        let dir = CLI.tempDir()
        let (p, _) = try Self.startEventJob(in: dir)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let lines = try Self.lines(dir + "/live.m3u8")
        #expect(!lines.contains("#EXT-X-ENDLIST") && lines.last == "", "\(lines)")
        let listed = Self.segments(lines).map(\.uri)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0 != "g.json" }.sorted()
        // the playlist is rewritten just after each segment: one more may be there, unlisted
        let expected = (["live.m3u8", "live_init.mp4"] + listed).sorted()
        let next = "live\(listed.count).m4s"
        #expect(files == expected || files == (expected + [next]).sorted(), "\(files) for \(listed)")
        // ffmpeg's HLS reader takes a playlist without ENDLIST as live (it starts 3 segments
        // from the end and waits for more), so the listed segments are joined behind the init
        // segment and read as one file instead
        var joined = try Data(contentsOf: URL(fileURLWithPath: dir + "/live_init.mp4"))
        for uri in listed { joined += try Data(contentsOf: URL(fileURLWithPath: dir + "/" + uri)) }
        try joined.write(to: URL(fileURLWithPath: dir + "/joined.mp4"))
        let pictures = Int((Self.segments(lines).map(\.seconds).reduce(0, +) * 30).rounded())
        #expect(try MatroskaSinkTests.framemd5(["-i", dir + "/joined.mp4"]).count == pictures)
    }

    /// Mistakes found before anything runs (exit 2), each naming the node and what to do.
    @Test func mistakesAreNamedAtValidation() throws {
        let dir = CLI.tempDir()
        let cases: [(video: String, hls: String, expected: String)] = [
            ("h264", #""path": "out.mp4""#, "expected a file ending in .m3u8"),
            ("h264", #""path": "out.m3u8", "segment-duration": 0"#, "segment-duration"),
            ("h264", #""path": "out.m3u8", "segment-duration": 5000"#, "segment-duration"),
            ("h264", #""path": "out.m3u8", "playlist-type": "sliding""#, "playlist-type"),
            ("h264", #""path": "out.m3u8", "list-size": 3"#, "param 'list-size': applies to \"playlist-type\": \"live\" only"),
            ("h264", #""path": "out.m3u8", "playlist-type": "event", "delete-segments": true"#, "param 'delete-segments': applies to \"playlist-type\": \"live\" only (event playlists list every segment"),
            ("h264", #""path": "out.m3u8", "segment-name": "a/b""#, "param 'segment-name'"),
            ("h264", #""path": "a#b.m3u8""#, "param 'segment-name': the playlist's name 'a#b.m3u8' gives segment names with '#'"),
            ("vp9", #""path": "out.m3u8""#, "vp9 is not written to HLS segments, which players take as H.264 or HEVC video and AAC audio: encode the video with h264 or hevc"),
        ]
        for c in cases {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5 } }, "enc": { "type": "\(c.video)" },
                         "hls": { "type": "hls", "params": { \(c.hls) } } },
              "chains": [["src", "enc", "hls.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 2, "\(c.hls): \(r.stderr)")
            #expect(r.stderr.contains("'hls'") && r.stderr.contains(c.expected), "\(c.hls): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["g.json"])
    }

    /// A read-only directory: exit 1 naming the node, the file and the reason, and no file. A
    /// full disk: VOD removes every file it wrote; EVENT keeps its playlist and the complete
    /// segments it lists, says so, and leaves no half-written file.
    @Test func unwritableDirectoryAndFullDiskFailCleanly() throws {
        for (flags, size, kind) in [(UInt(MS_RDONLY), "64k", "vod"), (0, "256k", "vod"), (0, "256k", "event")] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 600 } },
                         "enc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "hls": { "type": "hls", "params": { "path": "\(out)/s.m3u8", "segment-duration": 0.5, "playlist-type": "\(kind)" } } },
              "chains": [["src", "enc", "hls.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            #expect(r.stderr.contains("error: node 'hls' (hls): ") && r.stderr.contains(out + "/s") && r.stderr.contains(reason), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            if kind == "vod" {
                #expect(left.isEmpty, "\(left)")
                if flags == 0 { #expect(r.stderr.contains("removed the "), "\(r.stderr)") }
            } else {
                let lines = try Self.lines(out + "/s.m3u8")
                let listed = Self.segments(lines).map(\.uri)
                #expect(!listed.isEmpty && !lines.contains("#EXT-X-ENDLIST"), "\(lines)")
                #expect(left == (["s.m3u8", "s_init.mp4"] + listed).sorted(), "\(left)")
                #expect(r.stderr.contains("kept '\(out)/s.m3u8' with the \(listed.count) complete segments written"), "\(r.stderr)")
            }
        } }
    }
}
