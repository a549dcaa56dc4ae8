#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `hls` sink with several video inputs (a bit-rate ladder) against independent readers:
/// ffmpeg's HLS demuxer and ffprobe reading the master playlist, the test's own reading of the
/// playlists and segment files, and Chromium playing each variant. The reference packets are
/// the same encoders' output muxed by our `mp4` sink in the same run.
@Suite struct HLSLadderTests {
    /// testsrc (30 fps, `width`x`height`) fanned out to `codec` at its size (`hls.video`) and a
    /// scale to half (`codec1`, `hls.video1`), key frames every `keyint` / `keyint1` frames and no
    /// scene-cut ones; sine → aac (`hls.audio`). The same packets also go to dir/ours.mp4.
    static func encode(in dir: String, frames: Int = 150, keyint: Int = 30, keyint1: Int = 30, codec1: String = "h264",
                       params: String = "", width: Int = 320, height: Int = 240) throws -> CLI.Result {
        let noSceneCut = #""x264-params": "scenecut=0""#
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": \(width), "height": \(height), "frames": \(frames) } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": \(keyint), \(noSceneCut) } },
                     "small": { "type": "scale", "params": { "width": \(width / 2), "height": \(height / 2) } },
                     "venc1": { "type": "\(codec1)", "params": { "preset": "veryfast", "keyint": \(keyint1)\(codec1 == "h264" ? ", " + noSceneCut : "") } },
                     "tone": { "type": "sine", "params": { "seconds": \(Double(frames) / 30) } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8"\(params) } } },
          "chains": [["src", "venc", "hls.video"], ["venc", "mp4.video"], ["src", "small", "venc1", "hls.video1"], ["venc1", "mp4.video1"],
                     ["tone", "aenc", "hls.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// The attributes of a tag line (`NAME=value` or `NAME="value"`, commas inside quotes kept).
    static func attributes(_ line: String) -> [String: String] {
        let list = line.drop { $0 != ":" }.dropFirst()
        var out: [String: String] = [:]
        var item = "", quoted = false
        for c in list + "," {
            if c == "\"" { quoted.toggle() }
            if c == "," && !quoted {
                let kv = item.split(separator: "=", maxSplits: 1).map(String.init)
                if kv.count == 2 { out[kv[0]] = kv[1].hasPrefix("\"") ? String(kv[1].dropFirst().dropLast()) : kv[1] }
                item = ""
            } else {
                item.append(c)
            }
        }
        return out
    }

    /// A media playlist's target duration and its segments: #EXTINF in microseconds (the six
    /// decimals as written) and the segment file's size.
    static func segments(_ playlist: String) throws -> (target: Int64, segments: [(micro: Int64, bytes: Int, uri: String)]) {
        let lines = try HLSSinkTests.lines(playlist)
        let folder = (playlist as NSString).deletingLastPathComponent
        let target = lines.first { $0.hasPrefix("#EXT-X-TARGETDURATION:") }.flatMap { Int64($0.dropFirst(22)) } ?? 0
        var out: [(Int64, Int, String)] = []
        for (k, line) in lines.enumerated() where line.hasPrefix("#EXTINF:") {
            let micro = Int64(line.dropFirst(8).dropLast().replacingOccurrences(of: ".", with: ""))!
            let size = try FileManager.default.attributesOfItem(atPath: folder + "/" + lines[k + 1])[.size] as! Int
            out.append((micro, size, lines[k + 1]))
        }
        return (target, out)
    }

    /// RFC 8216 4.1 from the files: the peak segment bit rate (largest over runs of segments
    /// lasting 0.5 to 1.5 target durations) and the average, bits/s rounded up.
    static func bitRates(_ playlist: String) throws -> (peak: Int, average: Int) {
        let (target, s) = try Self.segments(playlist)
        func rate(_ bytes: Int, _ micro: Int64) -> Int { Int((Int64(bytes) * 8_000_000 + micro - 1) / micro) }
        var peak = 0
        for i in s.indices {
            for j in i..<s.count {
                let micro = s[i...j].reduce(0) { $0 + $1.micro }
                if micro > target * 1_500_000 { break }
                if micro >= target * 500_000 { peak = max(peak, rate(s[i...j].reduce(0) { $0 + $1.bytes }, micro)) }
            }
        }
        return (peak, rate(s.reduce(0) { $0 + $1.bytes }, s.reduce(0) { $0 + $1.micro }))
    }

    /// ffprobe's JSON of a file.
    static func probeJSON(_ args: [String]) throws -> [String: Any] {
        let text = try MatroskaSinkTests.ffprobe(args + ["-of", "json"])
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }

    /// Streams of a file as ffprobe lists them: index → (codec_type, width).
    static func streamKinds(_ file: String) throws -> [Int: (type: String, width: Int)] {
        let j = try Self.probeJSON(["-show_entries", "stream=index,codec_type,width", file])
        var out: [Int: (String, Int)] = [:]
        for s in j["streams"] as? [[String: Any]] ?? [] {
            out[s["index"] as! Int] = (s["codec_type"] as! String, s["width"] as? Int ?? 0)
        }
        return out
    }

    /// ffmpeg's HLS demuxer reads the master playlist: one program per variant with its
    /// BANDWIDTH as variant_bitrate, each with its video and the audio; every packet of each
    /// variant's video and of the audio rendition (relative times, duration, size, MD5) equals
    /// the same encoder's packets in our plain mp4.
    @Test func ffmpegReadsEveryVariantAndTheAudio() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let master = dir + "/out.m3u8"
        let infs = try HLSSinkTests.lines(master).filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.map(Self.attributes)
        let programs = try Self.probeJSON(["-show_entries", "program=program_id:program_tags=variant_bitrate:stream=codec_type,width", master])["programs"]
            as? [[String: Any]] ?? []
        #expect(programs.count == 2, "\(programs)")
        for (k, p) in programs.enumerated() where k < infs.count {
            let bitrate = (p["tags"] as? [String: Any])?["variant_bitrate"] as? String
            #expect(bitrate == infs[k]["BANDWIDTH"], "program \(k): \(bitrate ?? "none"), BANDWIDTH \(infs[k]["BANDWIDTH"] ?? "none")")
            let streams = (p["streams"] as? [[String: Any]] ?? []).map { "\($0["codec_type"]!) \($0["width"] ?? 0)" }.sorted()
            #expect(streams == ["audio 0", "video \(k == 0 ? 320 : 160)"], "program \(k): \(streams)")
        }

        let hls = try MatroskaSinkTests.framemd5(["-i", master, "-map", "0", "-c", "copy"])
        let mp4 = try MatroskaSinkTests.framemd5(["-i", dir + "/ours.mp4", "-map", "0", "-c", "copy"])
        let hlsKinds = try Self.streamKinds(master), mp4Kinds = try Self.streamKinds(dir + "/ours.mp4")
        #expect(hlsKinds.count == 3 && mp4Kinds.count == 3, "\(hlsKinds) \(mp4Kinds)")
        for (index, kind) in mp4Kinds {
            guard let other = hlsKinds.first(where: { $0.value == kind })?.key else {
                Issue.record("no \(kind) stream through the master playlist: \(hlsKinds)")
                continue
            }
            var a = HLSSinkTests.relative(hls, stream: String(other))
            var b = HLSSinkTests.relative(mp4, stream: String(index))
            #expect(a.count == b.count && a.count > 0, "\(kind): \(a.count) packets through the playlist, \(b.count) in the mp4")
            if kind.type == "audio" && a.count == b.count && a.count > 0 {
                // the plain mp4's edit list shortens the last AAC packet; fragments cannot (HLSSinkTests)
                a[a.count - 1][2] = "-"
                b[b.count - 1][2] = "-"
            }
            #expect(a == b, "\(kind): first difference at \(Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? -1)")
            if kind.type == "video" { #expect(a.count == 150, "\(kind): \(a.count) pictures") }
            // each rendition starts where its stream starts in the mp4: audio and video stay in step
            let first = { (file: String, stream: Int) in
                try MatroskaSinkTests.ffprobe(["-select_streams", String(stream), "-show_entries", "packet=pts_time", "-of", "csv=p=0", file])
                    .split(separator: "\n").first.map { String($0.split(separator: ",").first ?? "") }
            }
            let start = try first(master, other), reference = try first(dir + "/ours.mp4", index)
            #expect(start != nil && start == reference, "\(kind): first pts \(start ?? "none") through the master, \(reference ?? "none") in the mp4")
        }
    }

    /// One video and two audio inputs with languages (copied from a file ffmpeg wrote): a master
    /// with one variant and two renditions named by language, the first DEFAULT; BANDWIDTH the
    /// video's peak plus the larger audio peak; ffmpeg's HLS demuxer reads both with their
    /// languages and every packet equal to those in ffmpeg's file.
    @Test func audioRenditionsWithLanguages() throws {
        let dir = CLI.tempDir()
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000", "-f", "lavfi", "-i", "sine=f=880:sample_rate=44100", "-t", "5",
                                       "-map", "0", "-map", "1", "-c:a", "aac", "-b:a:1", "64k", "-metadata:s:a:0", "language=eng",
                                       "-metadata:s:a:1", "language=fra", dir + "/two.m4a"])
        #expect(f.status == 0, "\(f.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 150 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 30 } },
                     "two": { "type": "filesrc", "params": { "path": "two.m4a" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8" } } },
          "chains": [["src", "venc", "hls.video"], ["two.audio", "hls.audio"], ["two.audio1", "hls.audio1"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try HLSSinkTests.lines(dir + "/out.m3u8")
        #expect(lines.count == 8 && lines[6] == "out_video.m3u8", "\(lines)")
        guard lines.count == 8 else { return }
        #expect(lines[3] == ##"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="eng",LANGUAGE="eng",DEFAULT=YES,AUTOSELECT=YES,URI="out_audio.m3u8""##, "\(lines[3])")
        #expect(lines[4] == ##"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="fra",LANGUAGE="fra",DEFAULT=NO,AUTOSELECT=YES,URI="out_audio1.m3u8""##, "\(lines[4])")
        let a = Self.attributes(lines[5])
        let video = try Self.bitRates(dir + "/out_video.m3u8")
        let eng = try Self.bitRates(dir + "/out_audio.m3u8"), fra = try Self.bitRates(dir + "/out_audio1.m3u8")
        #expect(eng.peak > fra.peak, "128k and 64k: \(eng) \(fra)")
        #expect(a["BANDWIDTH"] == String(video.peak + max(eng.peak, fra.peak)), "\(lines[5]); \(video) \(eng) \(fra)")
        #expect(a["AVERAGE-BANDWIDTH"] == String(video.average + max(eng.average, fra.average)), "\(lines[5]); \(video) \(eng) \(fra)")
        #expect(a["AUDIO"] == "audio" && a["CODECS"]?.hasSuffix(",mp4a.40.2") == true, "\(lines[5])")

        let probed = try Self.probeJSON(["-show_entries", "stream=index,codec_type,sample_rate:stream_tags=language", dir + "/out.m3u8"])["streams"]
            as? [[String: Any]] ?? []
        var languages: [String: String] = [:]
        for s in probed where s["codec_type"] as? String == "audio" {
            languages[s["sample_rate"] as? String ?? "?"] = (s["tags"] as? [String: Any])?["language"] as? String ?? languages[s["sample_rate"] as? String ?? "?"]
        }
        #expect(languages == ["48000": "eng", "44100": "fra"], "\(probed)")
        for (k, uri) in ["out_audio.m3u8", "out_audio1.m3u8"].enumerated() {
            var ours = HLSSinkTests.relative(try MatroskaSinkTests.framemd5(["-i", dir + "/" + uri, "-c", "copy"]), stream: "0")
            var theirs = HLSSinkTests.relative(try MatroskaSinkTests.framemd5(["-i", dir + "/two.m4a", "-map", "0:a:\(k)", "-c", "copy"]), stream: "0")
            #expect(ours.count == theirs.count && ours.count > 200, "\(uri): \(ours.count) packets, ffmpeg's file \(theirs.count)")
            if ours.count == theirs.count && !ours.isEmpty {
                // ffmpeg's edit list shortens the last packet to the stream's end; a fragment cannot (HLSSinkTests)
                ours[ours.count - 1][2] = "-"
                theirs[theirs.count - 1][2] = "-"
            }
            #expect(ours == theirs, "\(uri): first difference at \(Array(zip(ours, theirs)).firstIndex { $0.0 != $0.1 } ?? -1)")
        }
    }

    /// The master playlist line by line: header, the audio rendition, a STREAM-INF per variant
    /// in port order with its media playlist; RESOLUTION and FRAME-RATE as ffprobe reads the
    /// variant, CODECS with ffprobe's profile and level, BANDWIDTH and AVERAGE-BANDWIDTH as the
    /// test computes them from the segment files and #EXTINF durations (video + audio); for an
    /// H.264 and an HEVC second variant.
    @Test(arguments: ["h264", "hevc"])
    func masterPlaylistStatesWhatTheFilesHold(_ codec1: String) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec1: codec1)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try HLSSinkTests.lines(dir + "/out.m3u8")
        #expect(lines.count == 9 && lines.last == "", "\(lines)")
        guard lines.count == 9 else { return }
        #expect(Array(lines.prefix(3)) == ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"], "\(lines)")
        #expect(lines[3] == ##"#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,URI="out_audio.m3u8""##, "\(lines[3])")
        #expect(lines[4].hasPrefix("#EXT-X-STREAM-INF:") && lines[6].hasPrefix("#EXT-X-STREAM-INF:"), "\(lines)")
        #expect(lines[5] == "out_video.m3u8" && lines[7] == "out_video1.m3u8", "\(lines)")
        let audio = try Self.bitRates(dir + "/out_audio.m3u8")
        let aac = try Self.probeJSON(["-select_streams", "a:0", "-show_entries", "stream=profile", dir + "/out_audio.m3u8"])
        #expect(((aac["streams"] as? [[String: Any]])?.first?["profile"] as? String) == "LC", "\(aac)")
        for (line, uri) in [(lines[4], lines[5]), (lines[6], lines[7])] {
            let a = Self.attributes(line)
            let playlist = dir + "/" + uri
            let video = try Self.bitRates(playlist)
            #expect(a["BANDWIDTH"] == String(video.peak + audio.peak), "\(uri): \(line); video peak \(video.peak), audio \(audio.peak)")
            #expect(a["AVERAGE-BANDWIDTH"] == String(video.average + audio.average), "\(uri): \(line); \(video.average) + \(audio.average)")
            let s = (try Self.probeJSON(["-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,profile,level,r_frame_rate", playlist])["streams"]
                     as? [[String: Any]])?.first ?? [:]
            #expect(a["RESOLUTION"] == "\(s["width"] ?? "?")x\(s["height"] ?? "?")", "\(uri): \(line); ffprobe \(s)")
            #expect(s["r_frame_rate"] as? String == "30/1" && a["FRAME-RATE"] == "30.000", "\(uri): \(line); ffprobe \(s)")
            let codecs = (a["CODECS"] ?? "").split(separator: ",").map(String.init)
            #expect(codecs.count == 2 && codecs.last == "mp4a.40.2", "\(uri): \(line)")
            let level = s["level"] as? Int ?? -1
            if s["codec_name"] as? String == "h264" {
                // avc1.PPCCLL: High is profile_idc 100 (0x64)
                #expect(s["profile"] as? String == "High" && codecs.first?.hasPrefix("avc1.64") == true
                        && codecs.first?.hasSuffix(String(format: "%02x", level)) == true, "\(uri): \(line); ffprobe \(s)")
            } else {
                // hvc1.1.…: Main is general_profile_idc 1; L and level_idc (Main tier)
                #expect(s["profile"] as? String == "Main" && codecs.first?.hasPrefix("hvc1.1.") == true
                        && codecs.first?.contains(".L\(level)") == true, "\(uri): \(line); ffprobe \(s)")
            }
        }
    }

    /// Each variant, init + its segments joined, is an MP4 Chromium plays to the end, every frame.
    @Test func chromiumPlaysEachVariant() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for port in ["video", "video1"] {
            var joined = try Data(contentsOf: URL(fileURLWithPath: dir + "/out_\(port)_init.mp4"))
            for s in try Self.segments(dir + "/out_\(port).m3u8").segments { joined += try Data(contentsOf: URL(fileURLWithPath: dir + "/" + s.uri)) }
            try joined.write(to: URL(fileURLWithPath: dir + "/\(port).mp4"))
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/\(port).mp4", "--min-frames", "150"])
            #expect(play.status == 0, "\(port): \(play.out) \(play.stderr)")
            #expect(play.out.contains(#""totalVideoFrames": 150"#), "\(port): \(play.out)")
        }
    }

    /// Where each segment of a variant starts (ffprobe: the first video pts of init + segment).
    static func segmentStarts(_ dir: String, port: String) throws -> [String] {
        let initBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/out_\(port)_init.mp4"))
        return try Self.segments(dir + "/out_\(port).m3u8").segments.enumerated().map { k, s in
            let joined = dir + "/\(port)-\(k).mp4"
            try (initBytes + Data(contentsOf: URL(fileURLWithPath: dir + "/" + s.uri))).write(to: URL(fileURLWithPath: joined))
            let first = try MatroskaSinkTests.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=dts_time,flags", "-of", "csv=p=0",
                                                       joined]).split(separator: "\n").first ?? ""
            #expect(first.hasSuffix("K_"), "\(port) segment \(k) starts with \(first)")
            return String(first.split(separator: ",").first ?? "")
        }
    }

    /// Key frames every second in both variants: their segments start at the same times (2 s
    /// grid: 0, 2, 4), no warning. Key frames every 1 s and every 1.5 s: each variant is cut at
    /// its own key frames (0, 2, 4 and 0, 3, 4.5), so the starts differ, the run warns where, and
    /// each media playlist still states its own segments (#EXTINF adds up to the stream).
    @Test func segmentsOfVariantsStartTogetherWhenKeyFramesAlign() throws {
        let aligned = CLI.tempDir()
        let r = try Self.encode(in: aligned, params: #", "segment-duration": 2"#)
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        let a = try Self.segmentStarts(aligned, port: "video"), b = try Self.segmentStarts(aligned, port: "video1")
        #expect(a.count == 3 && a == b, "video \(a), video1 \(b)")

        let apart = CLI.tempDir()
        let s = try Self.encode(in: apart, keyint1: 45, params: #", "segment-duration": 2"#)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(s.stderr.contains("warning: node 'hls' (hls): the segments of 'video1' do not start where those of 'video' do (segment 1 starts at 3.000 s, not 2.000 s)"),
                "\(s.stderr)")
        let c = try Self.segmentStarts(apart, port: "video"), d = try Self.segmentStarts(apart, port: "video1")
        #expect(c.count == 3 && d.count == 3 && c[1] != d[1], "video \(c), video1 \(d)")
        for port in ["video", "video1"] {
            let micro = try Self.segments(apart + "/out_\(port).m3u8").segments.reduce(0) { $0 + $1.micro }
            #expect(micro == 5_000_000, "\(port): #EXTINF adds up to \(micro) µs")
        }
    }

    /// Starts a long ladder job writing EVENT playlists (0.5 s segments); returns it once the
    /// master playlist has appeared. Until then, and for a while after, the folder is read every
    /// few milliseconds: whenever the master is there, every playlist it names is there and
    /// complete, and every segment those name is there.
    static func startEventJob(in dir: String, segmentType: String = "fmp4") throws -> Process {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "small": { "type": "scale", "params": { "width": 160, "height": 120 } },
                     "venc1": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "tone": { "type": "sine", "params": { "seconds": 3000 } },
                     "aenc": { "type": "aac" },
                     "hls": { "type": "hls", "params": { "path": "live.m3u8", "playlist-type": "event", "segment-duration": 0.5, "segment-type": "\(segmentType)" } } },
          "chains": [["src", "venc", "hls.video"], ["src", "small", "venc1", "hls.video1"], ["tone", "aenc", "hls.audio"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var seenSince: Date?
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline && (seenSince.map { Date().timeIntervalSince($0) < 1 } ?? true) {
            if let master = try? String(contentsOfFile: dir + "/live.m3u8", encoding: .utf8) {
                if seenSince == nil { seenSince = Date() }
                Self.expectComplete(master: master, in: dir)
            }
            usleep(5_000)
        }
        guard seenSince != nil, p.isRunning else {
            kill(p.processIdentifier, SIGKILL)
            throw CancellationError()
        }
        return p
    }

    /// The playlists a master names (variants' and renditions' URIs).
    static func named(by master: String) -> [String] {
        master.split(separator: "\n").compactMap { line -> String? in
            if line.hasPrefix("#EXT-X-MEDIA:") { return Self.attributes(String(line))["URI"] }
            return line.hasPrefix("#") ? nil : String(line)
        }
    }

    /// Every playlist the master names is there, whole (EVENT, header to last line), and every
    /// segment it lists is there.
    static func expectComplete(master: String, in dir: String) {
        #expect(master.hasPrefix("#EXTM3U\n") && master.hasSuffix("\n") && master.contains("#EXT-X-STREAM-INF:"), "\(master)")
        let uris = Self.named(by: master)
        #expect(uris.sorted() == ["live_audio.m3u8", "live_video.m3u8", "live_video1.m3u8"], "\(master)")
        for uri in uris {
            guard let text = try? String(contentsOfFile: dir + "/" + uri, encoding: .utf8) else {
                Issue.record("the master names \(uri), which is not there")
                continue
            }
            #expect(text.hasPrefix("#EXTM3U\n") && text.contains("#EXT-X-PLAYLIST-TYPE:EVENT\n") && text.hasSuffix("\n"), "\(uri): \(text)")
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                #expect(FileManager.default.fileExists(atPath: dir + "/" + line), "\(uri) lists \(line), which is not there")
            }
        }
    }

    /// EVENT: the master appears only when every media playlist it names is there (checked
    /// every few ms while the job runs); Ctrl-C ends the run in order: exit 130, every media
    /// playlist ends with ENDLIST, and ffprobe reads both variants and the audio through the
    /// master. SIGKILL leaves a master whose playlists and segments are all there. The same with
    /// MPEG-TS segments.
    @Test(arguments: [SIGINT, SIGKILL], ["fmp4", "mpegts"])
    func eventMasterNeverNamesAMissingPlaylist(_ signal: Int32, _ segmentType: String) throws {
        let dir = CLI.tempDir()
        let p = try Self.startEventJob(in: dir, segmentType: segmentType)
        kill(p.processIdentifier, signal)
        p.waitUntilExit()
        let master = try String(contentsOfFile: dir + "/live.m3u8", encoding: .utf8)
        Self.expectComplete(master: master, in: dir)
        let ended = try Self.named(by: master).map { try String(contentsOfFile: dir + "/" + $0, encoding: .utf8).hasSuffix("#EXT-X-ENDLIST\n") }
        if signal == SIGINT {
            #expect(p.terminationStatus == 130)
            #expect(ended == [true, true, true], "\(ended)")
            let kinds = try Self.streamKinds(dir + "/live.m3u8").values.map { "\($0.type) \($0.width)" }.sorted()
            #expect(kinds == ["audio 0", "video 160", "video 320"], "\(kinds)")
        } else {
            #expect(ended == [false, false, false], "\(ended)")
        }
    }

    /// Mistakes found before anything runs (exit 2), each naming the node and the param or port.
    @Test func mistakesAreNamedAtValidation() throws {
        let dir = CLI.tempDir()
        let twoVideos = #""src": { "type": "testsrc", "params": { "frames": 5 } }, "e": { "type": "h264" }, "e1": { "type": "ENCODER" }"#
        let cases: [(nodes: String, hls: String, chains: String, expected: String)] = [
            (twoVideos.replacingOccurrences(of: "ENCODER", with: "h264"), #""path": "a_video1.m3u8", "segment-name": "a""#,
             #"["src", "e", "hls.video"], ["src", "e1", "hls.video1"]"#,
             #"param 'path': the master playlist 'a_video1.m3u8' has the name that "segment-name": "a" gives the media playlist of input 'video1'"#),
            (#""t": { "type": "sine", "params": { "seconds": 0.2 } }, "a": { "type": "aac" }, "a1": { "type": "aac" }"#, #""path": "out.m3u8""#,
             #"["t", "a", "hls.audio"], ["t", "a1", "hls.audio1"]"#,
             "inputs 'audio', 'audio1': several audio renditions need a video input"),
            (twoVideos.replacingOccurrences(of: "ENCODER", with: "vp9"), #""path": "out.m3u8""#,
             #"["src", "e", "hls.video"], ["src", "e1", "hls.video1"]"#,
             "input 'video1': vp9 is not written to HLS segments"),
        ]
        for c in cases {
            let g = CLI.writeGraph("""
            { "nodes": { \(c.nodes), "hls": { "type": "hls", "params": { \(c.hls) } } },
              "chains": [\(c.chains)] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 2, "\(c.hls) \(c.chains): \(r.stderr)")
            #expect(r.stderr.contains("'hls'") && r.stderr.contains(c.expected), "\(c.hls) \(c.chains): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["g.json"])
    }

    /// A read-only folder: exit 1 naming the node, a file and the reason, and no file. A full
    /// one: VOD removes every file of every rendition and says how many; EVENT keeps a master
    /// whose playlists and segments are all there. The same with MPEG-TS segments.
    @Test(arguments: ["fmp4", "mpegts"])
    func unwritableAndFullFolderFailCleanly(_ segmentType: String) throws {
        for (flags, size, kind) in [(UInt(MS_RDONLY), "64k", "vod"), (0, "512k", "vod"), (0, "512k", "event")] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 600 } },
                         "enc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "small": { "type": "scale", "params": { "width": 160, "height": 120 } },
                         "enc1": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "tone": { "type": "sine", "params": { "seconds": 20 } },
                         "aenc": { "type": "aac" },
                         "hls": { "type": "hls", "params": { "path": "\(out)/live.m3u8", "segment-duration": 0.5, "playlist-type": "\(kind)", "segment-type": "\(segmentType)" } } },
              "chains": [["src", "enc", "hls.video"], ["src", "small", "enc1", "hls.video1"], ["tone", "aenc", "hls.audio"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            #expect(r.stderr.contains("error: node 'hls' (hls): ") && r.stderr.contains(out + "/live_") && r.stderr.contains(reason), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            if kind == "vod" {
                #expect(left.isEmpty, "\(left)")
                if flags == 0 {
                    #expect(r.stderr.contains(/removed the [0-9]+ files written \([0-9]+ segments of 3 renditions\)/), "\(r.stderr)")
                }
            } else {
                let master = try String(contentsOfFile: out + "/live.m3u8", encoding: .utf8)
                Self.expectComplete(master: master, in: out)
                #expect(r.stderr.contains("kept '\(out)/live.m3u8' and its 3 media playlists with the "), "\(r.stderr)")
            }
        } }
    }
}
