#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `dash` sink with several representations of one kind: a bit-rate ladder (video, video1
/// into one AdaptationSet) and audio in several bit rates and languages, against independent
/// references: ffmpeg's DASH demuxer reading our MPD (every representation, every packet equal
/// to the same encoder's packets in our plain mp4), ffmpeg's own `-c copy -f dash
/// -adaptation_sets …` of that mp4 (timelines, names, codecs, the sets' attributes), the files
/// on disk, and Chromium playing each representation's init + segments joined.
@Suite struct DASHLadderTests {
    /// testsrc 640x360 (30 fps) fanned out to h264 (a key frame every `keyints.0` frames) and a
    /// scale to 320x180 → h264 (every `keyints.1`), sine → aac, into a `dash` sink (dir/out.mpd,
    /// `params` added) as video, video1, audio and into an `mp4` sink (dir/ours.mp4) the same;
    /// with `smallRate` the small one goes through `fps` to that rate first.
    static func encode(in dir: String, keyints: (Int, Int) = (45, 45), frames: Int = 210, params: String = "",
                       smallRate: Int? = nil) throws -> CLI.Result {
        func encoder(_ keyint: Int, _ kbits: Int) -> String {
            #"{ "type": "h264", "params": { "preset": "veryfast", "keyint": \#(keyint), "min-keyint": \#(keyint), "bitrate": \#(kbits), "x264-params": "scenecut=0" } }"#
        }
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 640, "height": 360, "frames": \(frames) } },
                     "big": \(encoder(keyints.0, 800)),
                     "scale": { "type": "scale", "params": { "width": 320, "height": 180 } },
                     \(smallRate.map { #""rate": { "type": "fps", "params": { "rate": \#($0) } },"# } ?? "")
                     "small": \(encoder(keyints.1, 300)),
                     "tone": { "type": "sine", "params": { "seconds": \(Double(frames) / 30) } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "dash": { "type": "dash", "params": { "path": "out.mpd"\(params) } } },
          "chains": [["src", "big", "dash.video"], ["big", "mp4.video"], ["src", "scale", \(smallRate == nil ? "" : #""rate", "#)"small", "dash.video1"],
                     ["small", "mp4.video1"], ["tone", "aenc", "dash.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// ffmpeg's own DASH of `mp4` with the given sets, into a new folder; returns the folder.
    static func ffmpegsDash(of mp4: String, maps: [String], sets: String) throws -> String {
        let ref = CLI.tempDir()
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", mp4] + maps.flatMap { ["-map", $0] }
                            + ["-c", "copy", "-f", "dash", "-seg_duration", "2", "-use_template", "1", "-use_timeline", "1",
                               "-adaptation_sets", sets, ref + "/out.mpd"])
        #expect(f.status == 0, "\(f.stderr)")
        return ref
    }

    /// The segment files in a folder.
    static func segmentFiles(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".m4s") }.sorted()
    }

    /// Every representation's SegmentTimeline names exactly the files `chunk-streamN-…` there,
    /// its init segment is there, and its bandwidth is its segments' bytes over its seconds.
    static func timelinesNameTheFiles(_ mpd: DASHSinkTests.Element, in dir: String) throws {
        let all = try FileManager.default.contentsOfDirectory(atPath: dir)
        for rep in mpd.all("Representation") {
            let id = rep["id"] ?? "?"
            let segments = DASHSinkTests.timeline(rep)
            let names = all.filter { $0.hasPrefix("chunk-stream\(id)-") }.sorted()
            #expect(!segments.isEmpty && names == (1...max(1, segments.count)).map { "chunk-stream\(id)-" + String(format: "%05d", $0) + ".m4s" },
                    "representation \(id): \(segments.count) listed, files \(names)")
            #expect(zip(segments, segments.dropFirst()).allSatisfy { $0.t + $0.d == $1.t }, "representation \(id): a gap or overlap: \(segments)")
            #expect(all.contains("init-stream\(id).m4s"))
            let timescale = Double(rep.all("SegmentTemplate").first?["timescale"] ?? "") ?? 0
            let seconds = Double(segments.map(\.d).reduce(0, +)) / timescale
            let bytes = try names.map { try FileManager.default.attributesOfItem(atPath: dir + "/" + $0)[.size] as! Int }.reduce(0, +)
            #expect(abs((Double(rep["bandwidth"] ?? "") ?? 0) - Double(bytes) * 8 / seconds) <= 1, "representation \(id): \(rep.attributes)")
        }
    }

    /// A representation's init segment and its segments joined into one file, as a player
    /// appends them to one MediaSource buffer.
    static func joined(_ dir: String, representation id: Int, segments: Int) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: dir + "/init-stream\(id).m4s"))
        for k in 1...segments { data += try Data(contentsOf: URL(fileURLWithPath: dir + "/chunk-stream\(id)-" + String(format: "%05d", k) + ".m4s")) }
        let path = dir + "/joined\(id).mp4"
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A ladder of 640x360 and 320x180 with key frames together: ffmpeg's DASH reader finds
    /// three representations of the right sizes and every packet of each equals the same
    /// encoder's packets in our mp4; the MPD has the timelines, names, codecs and set
    /// attributes of ffmpeg's own `-adaptation_sets "id=0,streams=v id=1,streams=a"` of that
    /// mp4 (one video set with representations 0 and 1, maxWidth/maxHeight the larger,
    /// segmentAlignment true as the timelines start together) and the same packets through
    /// its reader; every timeline names exactly the files; Chromium plays each video
    /// representation's init + segments joined to the last frame.
    @Test func ladderIsOneAdaptationSetAsFFmpegWritesIt() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let streams = try MatroskaSinkTests.ffprobe(["-show_entries", "stream=codec_type,codec_name,width,height", "-of", "csv=p=0", dir + "/out.mpd"])
        // (ffprobe lists each stream twice: in the MPD's program and on its own)
        #expect(Set(streams.split(separator: "\n")) == ["aac,audio", "h264,video,320,180", "h264,video,640,360"], "\(streams)")
        let dash = try MatroskaSinkTests.framemd5(["-i", dir + "/out.mpd", "-map", "0", "-c", "copy"])
        let mp4 = try MatroskaSinkTests.framemd5(["-i", dir + "/ours.mp4", "-map", "0", "-c", "copy"])
        for stream in ["0", "1", "2"] {
            let a = DASHSinkTests.relative(dash, stream: stream)
            var b = DASHSinkTests.relative(mp4, stream: stream)
            // ffmpeg 5.1 reading an MPD leaves out the last packet of every representation but
            // the first (its own -f dash output too, below); init + segments joined have it
            if stream != "0" && b.count == a.count + 1 { b.removeLast() }
            #expect(a.count > 0 && a == b, "stream \(stream): \(a.count) packets through the MPD, \(b.count) in the mp4; first difference at \(Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? -1)")
        }
        #expect(DASHSinkTests.relative(dash, stream: "0").count == 210)

        let ref = try Self.ffmpegsDash(of: dir + "/ours.mp4", maps: ["0:v:0", "0:v:1", "0:a"], sets: "id=0,streams=v id=1,streams=a")
        let ours = try DASHSinkTests.parse(dir + "/out.mpd"), theirs = try DASHSinkTests.parse(ref + "/out.mpd")
        let (os, ts) = (ours.all("AdaptationSet"), theirs.all("AdaptationSet"))
        #expect(os.map { $0.all("Representation").map { $0["id"] ?? "" } } == [["0", "1"], ["2"]])
        #expect(os.map { $0.all("Representation").map { $0["id"] ?? "" } } == ts.map { $0.all("Representation").map { $0["id"] ?? "" } })
        for a in ["id", "contentType", "startWithSAP", "segmentAlignment", "frameRate", "maxWidth", "maxHeight", "par"] {
            #expect(os.map { $0[a] } == ts.map { $0[a] }, "AdaptationSet@\(a): ours \(os.map { $0[a] }), ffmpeg's \(ts.map { $0[a] })")
        }
        #expect(os[0]["maxWidth"] == "640" && os[0]["maxHeight"] == "360" && os[0]["segmentAlignment"] == "true")
        // each representation has its own parameter sets (init segment): not bitstream switching
        // (ffmpeg writes true; we leave the default, false)
        #expect(os[0]["bitstreamSwitching"] == nil && ts[0]["bitstreamSwitching"] == "true")
        for (a, b) in zip(ours.all("Representation"), theirs.all("Representation")) {
            for attribute in ["id", "mimeType", "codecs", "width", "height", "sar", "audioSamplingRate"] {
                #expect(a[attribute] == b[attribute], "Representation@\(attribute): ours \(a.attributes), ffmpeg's \(b.attributes)")
            }
            #expect(a.all("SegmentTemplate").first?.attributes == b.all("SegmentTemplate").first?.attributes)
            let ta = DASHSinkTests.timeline(a), tb = DASHSinkTests.timeline(b)
            #expect(ta.map(\.t) == tb.map(\.t) && ta.map(\.d) == tb.map(\.d), "representation \(a["id"] ?? ""): ours \(ta), ffmpeg's \(tb)")
        }
        #expect(try Self.segmentFiles(dir) == Self.segmentFiles(ref))
        #expect(try MatroskaSinkTests.framemd5(["-i", dir + "/out.mpd", "-map", "0", "-c", "copy"])
                == MatroskaSinkTests.framemd5(["-i", ref + "/out.mpd", "-map", "0", "-c", "copy"]))

        try Self.timelinesNameTheFiles(ours, in: dir)
        let reps = ours.all("Representation")
        for id in [0, 1, 2] {
            let file = try Self.joined(dir, representation: id, segments: DASHSinkTests.timeline(reps[id]).count)
            var joined = DASHSinkTests.relative(try MatroskaSinkTests.framemd5(["-i", file, "-c", "copy"]), stream: "0")
            var reference = DASHSinkTests.relative(mp4, stream: "\(id)")
            if id == 2 && joined.count == reference.count && !joined.isEmpty {
                // ffmpeg's mp4 reader gives the last sample of a fragment 1024 where the trun
                // has the frame's 128 (its own -f dash segments read the same)
                joined[joined.count - 1][2] = "-"
                reference[reference.count - 1][2] = "-"
            }
            #expect(joined == reference, "representation \(id): \(joined.count) packets in init + segments, \(reference.count) in the mp4")
            if id == 2 { continue }  // browser-play wants a video track
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [file, "--min-frames", "150"])
            #expect(play.status == 0, "representation \(id): browser-play: \(play.out) \(play.stderr)")
        }
    }

    /// Key frames every 1.5 s in one representation and every 2 s in the other: each is cut at
    /// its own key frames and the audio follows whichever cuts first — the timelines of ffmpeg's
    /// own DASH of the same packets — so the segments do not line up and the set does not say
    /// segmentAlignment (ffmpeg's says "true" regardless, which a player switching at segment
    /// boundaries would trust and then skip or repeat media).
    @Test func differentKeyFramesAreNotSegmentAligned() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, keyints: (45, 60))
        #expect(r.status == 0, "\(r.stderr)")
        let ref = try Self.ffmpegsDash(of: dir + "/ours.mp4", maps: ["0:v:0", "0:v:1", "0:a"], sets: "id=0,streams=v id=1,streams=a")
        let ours = try DASHSinkTests.parse(dir + "/out.mpd"), theirs = try DASHSinkTests.parse(ref + "/out.mpd")
        let reps = ours.all("Representation")
        #expect(reps.count == 3)
        for (a, b) in zip(reps, theirs.all("Representation")) {
            let ta = DASHSinkTests.timeline(a), tb = DASHSinkTests.timeline(b)
            #expect(ta.map(\.t) == tb.map(\.t) && ta.map(\.d) == tb.map(\.d), "representation \(a["id"] ?? ""): ours \(ta), ffmpeg's \(tb)")
        }
        #expect(DASHSinkTests.timeline(reps[0]).map { Double($0.d) / 15360 } == [3, 3, 1])
        #expect(DASHSinkTests.timeline(reps[1]).map { Double($0.d) / 15360 } == [2, 2, 2, 1])
        let sets = ours.all("AdaptationSet")
        #expect(sets[0]["segmentAlignment"] == nil && sets[1]["segmentAlignment"] == "true", "\(sets.map(\.attributes))")
        #expect(theirs.all("AdaptationSet")[0]["segmentAlignment"] == "true")
        try Self.timelinesNameTheFiles(ours, in: dir)
    }

    /// A ladder of 30 and 15 fps (key frames every 2 s in both): as ffmpeg states different
    /// rates — maxFrameRate on the set, frameRate on each Representation — and the timelines
    /// of its own DASH of the same packets, which line up (segmentAlignment true).
    @Test func differentFrameRatesAsFFmpegStatesThem() throws {
        let dir = CLI.tempDir()
        let r = try Self.encode(in: dir, keyints: (60, 30), smallRate: 15)
        #expect(r.status == 0, "\(r.stderr)")
        let ref = try Self.ffmpegsDash(of: dir + "/ours.mp4", maps: ["0:v:0", "0:v:1", "0:a"], sets: "id=0,streams=v id=1,streams=a")
        let ours = try DASHSinkTests.parse(dir + "/out.mpd"), theirs = try DASHSinkTests.parse(ref + "/out.mpd")
        let (os, ts) = (ours.all("AdaptationSet"), theirs.all("AdaptationSet"))
        for a in ["maxFrameRate", "frameRate", "segmentAlignment", "maxWidth", "maxHeight", "par"] {
            #expect(os.map { $0[a] } == ts.map { $0[a] }, "AdaptationSet@\(a): ours \(os.map { $0[a] }), ffmpeg's \(ts.map { $0[a] })")
        }
        #expect(os[0]["maxFrameRate"] == "30/1" && os[0]["frameRate"] == nil && os[0]["segmentAlignment"] == "true")
        let (rs, rt) = (ours.all("Representation"), theirs.all("Representation"))
        #expect(rs.map { $0["frameRate"] } == ["30/1", "15/1", nil] && rs.map { $0["frameRate"] } == rt.map { $0["frameRate"] })
        for (a, b) in zip(rs, rt) {
            let ta = DASHSinkTests.timeline(a), tb = DASHSinkTests.timeline(b)
            #expect(ta.map(\.t) == tb.map(\.t) && ta.map(\.d) == tb.map(\.d), "representation \(a["id"] ?? ""): ours \(ta), ffmpeg's \(tb)")
        }
        try Self.timelinesNameTheFiles(ours, in: dir)
    }

    /// Audio in two bit rates of one language and a third in another (stream copy from a file
    /// ffmpeg made with language tags): one set for the English pair (lang="eng", two
    /// representations), one for the French; ffmpeg's reader gives every packet of the file;
    /// the timelines are those of ffmpeg's own DASH with the same sets.
    @Test func audioBitRatesAndLanguages() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.mp4"
        let made = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=30", "-f", "lavfi", "-i", "sine=sample_rate=48000",
                                          "-t", "5", "-map", "0:v", "-map", "1:a", "-map", "1:a", "-map", "1:a",
                                          "-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-c:a", "aac",
                                          "-b:a:0", "128k", "-b:a:1", "64k", "-b:a:2", "96k",
                                          "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=eng", "-metadata:s:a:2", "language=fra", input])
        #expect(made.status == 0, "\(made.stderr)")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "dash": { "type": "dash", "params": { "path": "out.mpd" } } },
          "chains": [["in.video", "dash.video"], ["in.audio", "dash.audio"], ["in.audio1", "dash.audio1"], ["in.audio2", "dash.audio2"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let mpd = try DASHSinkTests.parse(dir + "/out.mpd")
        let sets = mpd.all("AdaptationSet")
        #expect(sets.map { $0.all("Representation").map { $0["id"] ?? "" } } == [["0"], ["1", "2"], ["3"]])
        #expect(sets.map { $0["lang"] } == [nil, "eng", "fra"] && sets.map { $0["contentType"] } == ["video", "audio", "audio"])
        let dash = try MatroskaSinkTests.framemd5(["-i", dir + "/out.mpd", "-map", "0", "-c", "copy"])
        let file = try MatroskaSinkTests.framemd5(["-i", input, "-map", "0", "-c", "copy"])
        for stream in ["0", "1", "2", "3"] {
            let a = DASHSinkTests.relative(dash, stream: stream)
            var b = DASHSinkTests.relative(file, stream: stream)
            if stream != "0" && b.count == a.count + 1 { b.removeLast() }
            #expect(a.count > 0 && a == b, "stream \(stream): \(a.count) packets through the MPD, \(b.count) in the file")
        }
        let ref = try Self.ffmpegsDash(of: input, maps: ["0"], sets: "id=0,streams=0 id=1,streams=1,2 id=2,streams=3")
        for (a, b) in zip(mpd.all("Representation"), try DASHSinkTests.parse(ref + "/out.mpd").all("Representation")) {
            let ta = DASHSinkTests.timeline(a), tb = DASHSinkTests.timeline(b)
            #expect(ta.map(\.t) == tb.map(\.t) && ta.map(\.d) == tb.map(\.d), "representation \(a["id"] ?? ""): ours \(ta), ffmpeg's \(tb)")
            #expect(a["codecs"] == b["codecs"] && a["audioSamplingRate"] == b["audioSamplingRate"])
        }
        try Self.timelinesNameTheFiles(mpd, in: dir)
    }

    /// A ladder whose pictures have two shapes (16:9 and 4:3) cannot be one set (exit 2, the
    /// node, both ports, their sizes and what to do); names without $RepresentationID$ would
    /// give three representations one file. Nothing is written.
    @Test func mistakesAreNamedAtValidation() throws {
        let dir = CLI.tempDir()
        // (a scale node keeps the shape, changing the sample aspect: a second source has another)
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 640, "height": 360, "frames": 5 } }, "big": { "type": "h264" },
                     "src2": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 5 } }, "small": { "type": "h264" },
                     "dash": { "type": "dash", "params": { "path": "out.mpd" } } },
          "chains": [["src", "big", "dash.video"], ["src2", "small", "dash.video1"]] }
        """, in: dir)
        let shape = try CLI.mediagraph("run", "--quiet", g)
        #expect(shape.status == 2, "\(shape.stderr)")
        #expect(shape.stderr.contains("error: node 'dash' (dash): inputs 'video' (640x360, 16:9) and 'video1' (320x240, 4:3) have different picture aspect ratios, but the video inputs are representations of one AdaptationSet, which has one: scale (or pad) them to the same shape"), "\(shape.stderr)")
        let names = try Self.encode(in: dir, frames: 5, params: #", "init-segment-name": "init.m4s""#)
        #expect(names.status == 2, "\(names.stderr)")
        #expect(names.stderr.contains("node 'dash' (dash): param 'init-segment-name': 'init.m4s' has no $RepresentationID$, so the 3 representations' files would have the same names"), "\(names.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["g.json"])
    }

    /// A dynamic ladder (0.5 s segments, key frames together) says segmentAlignment while it
    /// runs; Ctrl-C ends it in order (exit 130): a static MPD whose representations list the same segments (aligned), every
    /// one there, and each video representation's init + segments holding the same pictures.
    @Test func ctrlCEndsALadderInOrder() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 640, "height": 360, "frames": 100000 } },
                     "big": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "min-keyint": 15, "x264-params": "scenecut=0" } },
                     "scale": { "type": "scale", "params": { "width": 320, "height": 180 } },
                     "small": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "min-keyint": 15, "x264-params": "scenecut=0" } },
                     "dash": { "type": "dash", "params": { "path": "live.mpd", "manifest-type": "dynamic", "segment-duration": 0.5 } } },
          "chains": [["src", "big", "dash.video"], ["src", "scale", "small", "dash.video1"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline && !FileManager.default.fileExists(atPath: dir + "/live.mpd") { usleep(10_000) }
        // while running: the segments listed so far line up (checked each time it is written)
        let live = try DASHSinkTests.parse(dir + "/live.mpd")
        #expect(live["type"] == "dynamic" && live.all("AdaptationSet").first?["segmentAlignment"] == "true", "\(live.all("AdaptationSet").map(\.attributes))")
        Thread.sleep(forTimeInterval: 1)
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let mpd = try DASHSinkTests.parse(dir + "/live.mpd")
        #expect(mpd["type"] == "static" && mpd.all("AdaptationSet").first?["segmentAlignment"] == "true", "\(mpd.all("AdaptationSet").map(\.attributes))")
        let reps = mpd.all("Representation")
        #expect(reps.count == 2 && DASHSinkTests.timeline(reps[0]).map(\.d) == DASHSinkTests.timeline(reps[1]).map(\.d))
        try Self.timelinesNameTheFiles(mpd, in: dir)
        let seconds = Double(DASHSinkTests.timeline(reps[0]).map(\.d).reduce(0, +)) / 15360
        for id in [0, 1] {
            let file = try Self.joined(dir, representation: id, segments: DASHSinkTests.timeline(reps[id]).count)
            #expect(try MatroskaSinkTests.framemd5(["-i", file]).count == Int((seconds * 30).rounded()), "representation \(id)")
        }
    }

    /// A full disk under a dynamic ladder: the MPD kept lists, for every representation, only
    /// segments that are there whole, and the error says so; static removes everything.
    @Test func fullDiskKeepsAConsistentLadder() throws {
        for kind in ["static", "dynamic"] { try ScratchMount.with(flags: 0, size: "384k") { out in
            let dir = CLI.tempDir()
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 600 } },
                         "big": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "scale": { "type": "scale", "params": { "width": 160, "height": 120 } },
                         "small": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15, "crf": 10 } },
                         "dash": { "type": "dash", "params": { "path": "\(out)/s.mpd", "segment-duration": 0.5, "manifest-type": "\(kind)" } } },
              "chains": [["src", "big", "dash.video"], ["src", "scale", "small", "dash.video1"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 1 && r.stderr.contains("No space left on device"), "\(r.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
            if kind == "static" {
                #expect(left.isEmpty && r.stderr.contains("removed the "), "\(left) \(r.stderr)")
                return
            }
            let mpd = try DASHSinkTests.parse(out + "/s.mpd")
            #expect(mpd["type"] == "dynamic")
            var expected = ["s.mpd"]
            for (k, rep) in mpd.all("Representation").enumerated() {
                let listed = DASHSinkTests.timeline(rep)
                #expect(!listed.isEmpty, "representation \(k) lists nothing")
                expected += ["init-stream\(k).m4s"] + (1...max(1, listed.count)).map { "chunk-stream\(k)-" + String(format: "%05d", $0) + ".m4s" }
            }
            #expect(left == expected.sorted(), "\(left)")
            #expect(r.stderr.contains("kept '\(out)/s.mpd' (dynamic) with the "), "\(r.stderr)")
        } }
    }
}
