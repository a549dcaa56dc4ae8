#if canImport(Glibc)
import Glibc
#endif
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The `dash` sink against independent readers: ffmpeg's DASH demuxer reading our MPD, ffprobe
/// on each segment behind its init segment, ffmpeg's own `-f dash` of the same encoded stream
/// (segment timelines, file names, packets), and the MPD parsed by Foundation's XMLParser for
/// the structure ISO/IEC 23009-1 asks. Inputs are made by our encoders inside the tests; the
/// reference packets are the same encoders' output muxed by our `mp4` sink in the same run.
/// (Chromium plays DASH only through a JavaScript player such as dash.js, which the headless
/// browser-play tool does not have, so no browser plays the MPD here.)
@Suite struct DASHSinkTests {
    /// testsrc (30 fps) → `codec` with a key frame every `keyint` frames, sine → `audio`, into both
    /// a `dash` sink (dir/out.mpd, `params` added) and an `mp4` sink (dir/ours.mp4).
    static func encode(in dir: String, codec: String = "h264", audio: String = "aac", frames: Int = 210, keyint: Int = 45,
                       params: String = "") throws -> CLI.Result {
        let preset = codec == "vp9" ? "" : #""preset": "veryfast", "#
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": \(frames) } },
                     "venc": { "type": "\(codec)", "params": { \(preset)"keyint": \(keyint) } },
                     "tone": { "type": "sine", "params": { "seconds": \(Double(frames) / 30) } },
                     "aenc": { "type": "\(audio)" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "dash": { "type": "dash", "params": { "path": "out.mpd"\(params) } } },
          "chains": [["src", "venc", "dash.video"], ["venc", "mp4.video"], ["tone", "aenc", "dash.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// An XML element with its attributes and children, as XMLParser reads it.
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
        subscript(_ attribute: String) -> String? { attributes[attribute] }
        /// Every element of that name below this one, in document order.
        func all(_ name: String) -> [Element] { children.flatMap { ($0.name == name ? [$0] : []) + $0.all(name) } }
    }

    final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: Element?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let e = Element(name: name, attributes: attributes)
            if let top = stack.last { top.children.append(e) } else { root = e }
            stack.append(e)
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
        }
    }

    /// The MPD as a tree; a parse error fails the test.
    static func parse(_ path: String) throws -> Element {
        let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
        let builder = TreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        #expect(ok, "\(path) is not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        guard ok, let root = builder.root else { throw CancellationError() }
        return root
    }

    /// A representation's segments from its SegmentTimeline: (S@t, S@d), r expanded, t carried on.
    static func timeline(_ representation: Element) -> [(t: Int64, d: Int64)] {
        var out: [(Int64, Int64)] = []
        var next: Int64 = 0
        for s in representation.all("S") {
            let d = Int64(s["d"] ?? "") ?? -1
            #expect(d > 0, "S@d missing or not positive: \(s.attributes)")
            var t = s["t"].flatMap { Int64($0) } ?? next
            for _ in 0...(Int(s["r"] ?? "0") ?? 0) {
                out.append((t, d))
                t += d
            }
            next = t
        }
        return out
    }

    /// ISO 8601 PTnHnMn.nS in seconds.
    static func seconds(_ duration: String?) -> Double? {
        guard let d = duration, let m = d.wholeMatch(of: /PT(?:([0-9]+)H)?(?:([0-9]+)M)?([0-9]+(?:\.[0-9]+)?)S/) else { return nil }
        return Double(m.1.map { Int($0)! } ?? 0) * 3600 + Double(m.2.map { Int($0)! } ?? 0) * 60 + Double(m.3)!
    }

    /// Packets of one stream, times made relative to its first dts: dts, pts, duration, size, MD5.
    static func relative(_ lines: [String], stream: String) -> [[String]] { HLSSinkTests.relative(lines, stream: stream) }

    /// ffmpeg's DASH demuxer reads the MPD: every video and audio packet (relative times,
    /// duration, size, MD5) equals the same encoders' packets in our mp4 file, every picture
    /// decodes, and ffprobe names the streams; for H.264 + AAC, HEVC + AAC and VP9 + Opus.
    @Test(arguments: [("h264", "aac"), ("hevc", "aac"), ("vp9", "opus")])
    func ffmpegReadsEveryPacketThroughTheMPD(_ codecs: (String, String)) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec: codecs.0, audio: codecs.1)
        #expect(r.status == 0, "\(r.stderr)")
        // ffmpeg 5.1's DASH reader finds the segments of a relative MPD path only from the
        // current folder, so it gets the absolute one
        let dash = try MatroskaSinkTests.framemd5(["-i", dir + "/out.mpd", "-c", "copy"])
        let mp4 = try MatroskaSinkTests.framemd5(["-i", dir + "/ours.mp4", "-c", "copy"])
        for stream in ["0", "1"] {
            var a = Self.relative(dash, stream: stream)
            var b = Self.relative(mp4, stream: stream)
            if stream == "1" && codecs.1 == "opus" {
                // ffmpeg 5.1's mp4 reader gives Opus packets in fragments no duration (its own
                // fragmented mp4 of the same packets too); the trun has them (960 each)
                a = a.map { [$0[0], $0[1], "-"] + $0[3...] }
                b = b.map { [$0[0], $0[1], "-"] + $0[3...] }
            }
            if stream == "1" && b.count == a.count + 1 {
                // ffmpeg reading an MPD leaves out the last audio packet (its own -f dash output
                // too, sameSegmentsAsFFmpegsOwnDash); the segment holds it (ffprobe below)
                b.removeLast()
            }
            #expect(a.count == b.count && a.count > 0, "stream \(stream): \(a.count) packets through the MPD, \(b.count) in the mp4")
            #expect(a == b, "stream \(stream): first difference at \(Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? -1)")
        }
        #expect(Self.relative(dash, stream: "0").count == 210)
        let decoded = try MatroskaSinkTests.ffprobe(["-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                                                     "-of", "csv=p=0", dir + "/out.mpd"])
        #expect(Set(decoded.split(separator: "\n")) == ["210"], "\(decoded)")
        let names = try MatroskaSinkTests.ffprobe(["-show_entries", "stream=codec_name", "-of", "csv=p=0", dir + "/out.mpd"])
        #expect(Set(names.split(separator: "\n")) == [Substring(codecs.0), Substring(codecs.1)], "\(names)")
        // every audio packet is in the segments: init + segments joined, read as one file
        var joined = try Data(contentsOf: URL(fileURLWithPath: dir + "/init-stream1.m4s"))
        for k in 1...Self.timeline(try Self.parse(dir + "/out.mpd").all("Representation")[1]).count {
            joined += try Data(contentsOf: URL(fileURLWithPath: dir + "/chunk-stream1-" + String(format: "%05d", k) + ".m4s"))
        }
        try joined.write(to: URL(fileURLWithPath: dir + "/audio.mp4"))
        let audio = try MatroskaSinkTests.packets(dir + "/audio.mp4", stream: "a:0")
        let reference = try MatroskaSinkTests.packets(dir + "/ours.mp4", stream: "a:0")
        #expect(audio.map { $0.last } == reference.map { $0.last }, "\(audio.count) audio packets in the segments, \(reference.count) in the mp4")
    }

    /// Key frames every 1.5 s and 2 s segments: the same timelines (every S@t and S@d, video and
    /// audio) and files as ffmpeg's own `-f dash -seg_duration 2 -use_template 1 -use_timeline 1`
    /// of the same encoded stream (3, 3, 1 s: counted from the previous cut, not HLS's grid),
    /// and the same packets through ffmpeg's DASH reader; each video segment read behind its
    /// init segment starts with a key frame and lasts its S@d.
    @Test(arguments: ["h264", "hevc"])
    func sameSegmentsAsFFmpegsOwnDash(_ codec: String) throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, codec: codec)
        #expect(r.status == 0, "\(r.stderr)")
        let ref = CLI.tempDir()
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-c", "copy", "-f", "dash", "-seg_duration", "2",
                                       "-use_template", "1", "-use_timeline", "1", ref + "/out.mpd"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = try Self.parse(dir + "/out.mpd").all("Representation"), theirs = try Self.parse(ref + "/out.mpd").all("Representation")
        #expect(ours.count == 2 && theirs.count == 2)
        for (a, b) in zip(ours, theirs) {
            #expect(a.all("SegmentTemplate").first?["timescale"] == b.all("SegmentTemplate").first?["timescale"])
            let ta = Self.timeline(a), tb = Self.timeline(b)
            #expect(ta.map(\.t) == tb.map(\.t) && ta.map(\.d) == tb.map(\.d), "representation \(a["id"] ?? ""): ours \(ta), ffmpeg's \(tb)")
        }
        if codec == "h264" {
            // x265's open GOPs put the pictures shown just before a key frame after it, in the next segment
            let video = Self.timeline(ours[0]).map { Double($0.d) / 15360 }
            #expect(video == [3, 3, 1], "\(video)")
            #expect(ours[0]["codecs"] == theirs[0]["codecs"], "\(ours[0].attributes) \(theirs[0].attributes)")
        } else { #expect(ours[0]["codecs"]?.wholeMatch(of: /hvc1\.1\.6\.L[0-9]+(\.[0-9A-F]{1,2})*/) != nil, "\(ours[0].attributes)") }
        #expect(ours[1]["codecs"] == theirs[1]["codecs"])
        let files = { (d: String) in try FileManager.default.contentsOfDirectory(atPath: d).filter { $0.hasSuffix(".m4s") }.sorted() }
        #expect(try files(dir) == files(ref))
        // the same packets through ffmpeg's DASH reader, to the last one it leaves out in both.
        // (Not for HEVC: ffmpeg's own segments give the key frame that starts each segment after
        // the first the composition time of the open-GOP picture after it, one frame early, so
        // two pictures share a time; ours keep the mp4's, ffmpegReadsEveryPacketThroughTheMPD.)
        if codec == "h264" {
            #expect(try MatroskaSinkTests.framemd5(["-i", dir + "/out.mpd", "-c", "copy"]) == MatroskaSinkTests.framemd5(["-i", ref + "/out.mpd", "-c", "copy"]))
        }

        let initBytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/init-stream0.m4s"))
        for (k, s) in Self.timeline(ours[0]).enumerated() {
            let joined = dir + "/joined\(k).mp4"
            let name = "/chunk-stream0-" + String(format: "%05d", k + 1) + ".m4s"
            try (initBytes + Data(contentsOf: URL(fileURLWithPath: dir + name))).write(to: URL(fileURLWithPath: joined))
            let rows = try MatroskaSinkTests.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=duration_time,flags",
                                                      "-of", "csv=p=0", joined]).split(separator: "\n")
            #expect(rows.first?.hasSuffix("K_") == true, "segment \(k + 1) starts with \(rows.first ?? "nothing")")
            let seconds = rows.compactMap { Double($0.split(separator: ",")[0]) }.reduce(0, +)
            #expect(abs(seconds - Double(s.d) / 15360) < 1.0 / 30, "segment \(k + 1): packets last \(seconds) s, S@d says \(Double(s.d) / 15360)")
        }
    }

    /// The MPD has what ISO/IEC 23009-1 asks of a static isoff-live presentation: MPD@profiles,
    /// type, mediaPresentationDuration, minBufferTime; a Period; per AdaptationSet a
    /// Representation with id, mimeType, codecs, bandwidth and its size or sampling rate; a
    /// SegmentTemplate with timescale, initialization and media; a SegmentTimeline whose S@t/@d/@r
    /// name exactly the segment files there; durations that add up to the presentation's.
    @Test func manifestIsWellFormedDASH() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, frames: 150, keyint: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let mpd = try Self.parse(dir + "/out.mpd")
        #expect(mpd.name == "MPD" && mpd["xmlns"] == "urn:mpeg:dash:schema:mpd:2011")
        #expect(mpd["profiles"] == "urn:mpeg:dash:profile:isoff-live:2011" && mpd["type"] == "static")
        let total = Self.seconds(mpd["mediaPresentationDuration"])
        #expect(total.map { abs($0 - 5) < 0.05 } == true, "\(mpd.attributes)")
        // segments of about 2 s (audio ones cut with the video's key frames vary by a frame)
        #expect(Self.seconds(mpd["maxSegmentDuration"]).map { $0 >= 2 && $0 < 2.1 } == true, "\(mpd.attributes)")
        #expect(abs((Self.seconds(mpd["minBufferTime"]) ?? 0) - 2 * (Self.seconds(mpd["maxSegmentDuration"]) ?? 0)) < 1e-5, "\(mpd.attributes)")
        let periods = mpd.all("Period")
        #expect(periods.count == 1 && Self.seconds(periods.first?["start"]) == 0)
        let sets = mpd.all("AdaptationSet")
        #expect(sets.map { $0["contentType"] } == ["video", "audio"] && sets.allSatisfy { $0["startWithSAP"] == "1" })
        #expect(sets[0]["frameRate"] == "30/1" && sets[0]["par"] == "4:3")
        let reps = mpd.all("Representation")
        #expect(reps.map { $0["id"] } == ["0", "1"] && reps.map { $0["mimeType"] } == ["video/mp4", "audio/mp4"])
        #expect(reps[0]["width"] == "320" && reps[0]["height"] == "240" && reps[0]["codecs"]?.hasPrefix("avc1.") == true)
        #expect(reps[1]["audioSamplingRate"] == "48000" && reps[1]["codecs"] == "mp4a.40.2")
        #expect(reps[1].all("AudioChannelConfiguration").first?["value"] == "2")
        for (k, rep) in reps.enumerated() {
            let template = rep.all("SegmentTemplate")
            #expect(template.count == 1)
            guard let t = template.first, let timescale = Int64(t["timescale"] ?? ""), timescale > 0 else {
                Issue.record("representation \(k): no SegmentTemplate@timescale")
                continue
            }
            #expect(t["initialization"] == "init-stream$RepresentationID$.m4s" && t["media"] == "chunk-stream$RepresentationID$-$Number%05d$.m4s"
                    && t["startNumber"] == "1")
            let segments = Self.timeline(rep)
            #expect(rep.all("S").first?["t"] == "0" && rep.all("S").allSatisfy { $0["r"].map { Int($0).map { $0 > 0 } ?? false } ?? true })
            #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.t + $0.d == $1.t }, "a gap or overlap: \(segments)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("chunk-stream\(k)-") }.sorted()
            #expect(names == (1...segments.count).map { "chunk-stream\(k)-" + String(format: "%05d", $0) + ".m4s" }, "\(names)")
            #expect(FileManager.default.fileExists(atPath: dir + "/init-stream\(k).m4s"))
            let seconds = Double(segments.map(\.d).reduce(0, +)) / Double(timescale)
            #expect(abs(seconds - (total ?? 0)) < 1.0 / 30, "representation \(k): \(seconds) s of segments, the MPD says \(total ?? 0)")
            let bytes = try names.map { try FileManager.default.attributesOfItem(atPath: dir + "/" + $0)[.size] as! Int }.reduce(0, +)
            let bandwidth = Double(rep["bandwidth"] ?? "") ?? 0
            #expect(abs(bandwidth - Double(bytes) * 8 / seconds) <= 1, "bandwidth \(bandwidth), segments \(Double(bytes) * 8 / seconds) bit/s")
        }
    }

    /// Starts a long job writing a dynamic MPD (0.5 s segments of 640x360 testsrc) and returns it
    /// with the first MPD read while it runs, which must be dynamic, well formed and list only
    /// segments that are there, at least one.
    static func startDynamicJob(in dir: String) throws -> (Process, [(t: Int64, d: Int64)]) {
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 640, "height": 360, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "dash": { "type": "dash", "params": { "path": "live.mpd", "manifest-type": "dynamic", "segment-duration": 0.5 } } },
          "chains": [["src", "venc", "dash.video"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline && !FileManager.default.fileExists(atPath: dir + "/live.mpd") { usleep(10_000) }
        guard FileManager.default.fileExists(atPath: dir + "/live.mpd") else {
            kill(p.processIdentifier, SIGKILL)
            throw CancellationError()
        }
        let mpd = try Self.parse(dir + "/live.mpd")
        #expect(mpd["type"] == "dynamic" && mpd["mediaPresentationDuration"] == nil, "\(mpd.attributes)")
        for a in ["availabilityStartTime", "publishTime"] {
            #expect(mpd[a]?.wholeMatch(of: /20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]\.[0-9]{3}Z/) != nil, "\(a): \(mpd.attributes)")
        }
        #expect(Self.seconds(mpd["minimumUpdatePeriod"]) != nil && Self.seconds(mpd["minBufferTime"]) != nil)
        let listed = Self.timeline(mpd.all("Representation")[0])
        #expect(!listed.isEmpty)
        for k in 1...max(1, listed.count) {
            #expect(FileManager.default.fileExists(atPath: dir + "/chunk-stream0-" + String(format: "%05d", k) + ".m4s"))
        }
        Thread.sleep(forTimeInterval: 0.5)
        return (p, listed)
    }

    /// Pictures in init + the first `count` video segments, read as one file.
    static func pictures(in dir: String, segments count: Int) throws -> Int {
        var joined = try Data(contentsOf: URL(fileURLWithPath: dir + "/init-stream0.m4s"))
        for k in 0..<count { joined += try Data(contentsOf: URL(fileURLWithPath: dir + "/chunk-stream0-" + String(format: "%05d", k + 1) + ".m4s")) }
        try joined.write(to: URL(fileURLWithPath: dir + "/joined.mp4"))
        return try MatroskaSinkTests.framemd5(["-i", dir + "/joined.mp4"]).count
    }

    /// `dynamic`: the MPD is there, dynamic and listing whole segments, while the job runs;
    /// Ctrl-C then ends the run in order (exit 130) and the final MPD is static, keeps the
    /// segments listed before and lists exactly the pictures the segments hold.
    @Test func dynamicManifestIsReadableWhileRunningAndEndsStaticOnCtrlC() throws {
        let dir = CLI.tempDir()
        let (p, listed) = try Self.startDynamicJob(in: dir)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let mpd = try Self.parse(dir + "/live.mpd")
        #expect(mpd["type"] == "static" && mpd["mediaPresentationDuration"] != nil && mpd["availabilityStartTime"] == nil)
        let all = Self.timeline(mpd.all("Representation")[0])
        #expect(all.count > listed.count && Array(all.prefix(listed.count)).map(\.d) == listed.map(\.d), "\(all) after \(listed)")
        let seconds = Double(all.map(\.d).reduce(0, +)) / 15360
        #expect(try Self.pictures(in: dir, segments: all.count) == Int((seconds * 30).rounded()))
        #expect(!FileManager.default.fileExists(atPath: dir + "/chunk-stream0-" + String(format: "%05d", all.count + 1) + ".m4s"))
    }

    /// A killed job (SIGKILL: nothing runs after it) leaves a dynamic MPD that lists only whole
    /// segments, all there and decodable, and no other file but the segment written just after
    /// the MPD (never half of one: it had no name yet).
    @Test func killedDynamicJobLeavesAPlayableManifest() throws {
        let dir = CLI.tempDir()
        let (p, _) = try Self.startDynamicJob(in: dir)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let mpd = try Self.parse(dir + "/live.mpd")
        #expect(mpd["type"] == "dynamic")
        let listed = Self.timeline(mpd.all("Representation")[0])
        let names = (1...max(1, listed.count)).map { "chunk-stream0-" + String(format: "%05d", $0) + ".m4s" }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0 != "g.json" }.sorted()
        let expected = (["live.mpd", "init-stream0.m4s"] + names).sorted()
        let next = "chunk-stream0-" + String(format: "%05d", listed.count + 1) + ".m4s"
        #expect(files == expected || files == (expected + [next]).sorted(), "\(files) for \(listed.count) listed")
        let seconds = Double(listed.map(\.d).reduce(0, +)) / 15360
        #expect(try Self.pictures(in: dir, segments: listed.count) == Int((seconds * 30).rounded()))
    }

    /// Mistakes found before anything runs (exit 2), each naming the node, the param and what to do.
    @Test func mistakesAreNamedAtValidation() throws {
        let dir = CLI.tempDir()
        let cases: [(video: String, dash: String, expected: String)] = [
            ("h264", #""path": "out.m3u8""#, "/out.m3u8' is not an MPD name: expected a file ending in .mpd"),
            ("h264", #""path": "out.mpd", "segment-duration": 0"#, "param 'segment-duration': expected number 0.1…3600, found 0"),
            ("h264", #""path": "out.mpd", "manifest-type": "live""#, #"param 'manifest-type': expected one of "static", "dynamic", found "live""#),
            ("h264", #""path": "out.mpd", "extra-window-size": 2"#, "param 'extra-window-size': applies to a window (param 'window-size' above 0)"),
            ("h264", #""path": "out.mpd", "window-size": -1"#, "param 'window-size'"),
            ("h264", #""path": "out.mpd", "media-segment-name": "seg.m4s""#, "param 'media-segment-name': 'seg.m4s' names every segment alike: expected $Number$ or $Time$"),
            ("h264", #""path": "out.mpd", "media-segment-name": "$Number$.m4s""#, "'$Number$.m4s' has no $RepresentationID$, so the 2 representations' files would have the same names"),
            ("h264", #""path": "out.mpd", "init-segment-name": "$RepresentationID$/i.m4s""#, "param 'init-segment-name': '$RepresentationID$/i.m4s' has '/'"),
            ("h264", #""path": "out.mpd", "media-segment-name": "s$Bandwidth$.m4s""#, "param 'media-segment-name': 's$Bandwidth$.m4s' has $Bandwidth$, which is not written"),
            ("h264", #""path": "out.mpd", "init-segment-name": "chunk-stream$RepresentationID$-12345.m4s""#,
             "param 'init-segment-name': 'chunk-stream0-12345.m4s' is also a name 'media-segment-name' gives a segment"),
            ("vp8", #""path": "out.mpd""#, "input 'video': vp8 is not written to DASH segments, which players take in MP4 as H.264, HEVC or VP9 video and AAC or Opus audio: encode the video with h264, hevc or vp9"),
        ]
        for c in cases {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "frames": 5 } }, "enc": { "type": "\(c.video)" },
                         "tone": { "type": "sine", "params": { "seconds": 0.2 } }, "aenc": { "type": "aac" },
                         "dash": { "type": "dash", "params": { \(c.dash) } } },
              "chains": [["src", "enc", "dash.video"], ["tone", "aenc", "dash.audio"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 2, "\(c.dash): \(r.stderr)")
            #expect(r.stderr.contains("'dash'") && r.stderr.contains(c.expected), "\(c.dash): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["g.json"])
    }

    /// A read-only directory: exit 1 naming the node, the file and the reason, and no file. A
    /// full disk: static removes every file it wrote; dynamic keeps its MPD and the complete
    /// segments it lists, says so, and leaves no half-written file.
    @Test func unwritableDirectoryAndFullDiskFailCleanly() throws {
        for (flags, size, kind) in [(UInt(MS_RDONLY), "64k", "static"), (0, "256k", "static"), (0, "256k", "dynamic")] { try ScratchMount.with(flags: flags, size: size) { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 600 } },
                         "enc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "dash": { "type": "dash", "params": { "path": "\(out)/s.mpd", "segment-duration": 0.5, "manifest-type": "\(kind)" } } },
              "chains": [["src", "enc", "dash.video"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1, "\(r.stderr)")
            let reason = flags == 0 ? "No space left on device (the disk is full)" : "Read-only file system"
            let file = flags == 0 ? out + "/chunk-stream0-" : out + "/init-stream0.m4s"
            #expect(r.stderr.contains("error: node 'dash' (dash): ") && r.stderr.contains(file) && r.stderr.contains(reason), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            if kind == "static" {
                #expect(left.isEmpty, "\(left)")
                if flags == 0 { #expect(r.stderr.contains("removed the "), "\(r.stderr)") }
            } else {
                let mpd = try Self.parse(out + "/s.mpd")
                let listed = Self.timeline(mpd.all("Representation")[0])
                #expect(!listed.isEmpty && mpd["type"] == "dynamic", "\(mpd.attributes)")
                let names = (1...max(1, listed.count)).map { "chunk-stream0-" + String(format: "%05d", $0) + ".m4s" }
                #expect(left == (["s.mpd", "init-stream0.m4s"] + names).sorted(), "\(left)")
                #expect(r.stderr.contains("kept '\(out)/s.mpd' (dynamic) with the \(listed.count) complete segments it lists"), "\(r.stderr)")
            }
        } }
    }
}
