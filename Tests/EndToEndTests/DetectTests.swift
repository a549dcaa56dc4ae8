import Foundation
import Testing

/// `silencedetect`, `blackdetect` and `volumedetect` against ffmpeg 5.1's filters of the same
/// names on the same files: the same spans (as ffmpeg prints them, `%.6g` seconds) and the same
/// figures, read from ffmpeg's log lines and from our JSON files and notes.
@Suite struct DetectTests {
    /// What ffmpeg's `-af|-vf FILTER` prints, the `[name @ 0x…] ` prefix dropped.
    static func ffmpegLines(_ input: String, _ filterOption: String, _ filter: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-hide_banner", "-nostats", "-i", input, filterOption, filter, "-f", "null", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stderr.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("["), line.contains("detect") || line.contains("scdet"), let end = line.range(of: "] ") else { return nil }
            return String(line[end.upperBound...])
        }
    }

    /// ffmpeg's silencedetect lines as spans "[channel: C | ]start end duration".
    static func ffmpegSilences(_ lines: [String]) -> [String] {
        var spans: [String] = [], open: [String: String] = [:]
        for l in lines {
            let channel = l.hasPrefix("channel: ") ? String(l.prefix(while: { $0 != "|" })) : ""
            let body = channel.isEmpty ? l : String(l.dropFirst(channel.count + 2))
            if body.hasPrefix("silence_start: ") {
                open[channel] = String(body.dropFirst("silence_start: ".count))
            } else if body.hasPrefix("silence_end: ") {
                let parts = body.dropFirst("silence_end: ".count).components(separatedBy: " | silence_duration: ")
                spans.append("\(channel)\(open[channel] ?? "?") \(parts[0]) \(parts.count > 1 ? parts[1] : "?")")
                open[channel] = nil
            }
        }
        return spans
    }

    /// Our JSON file's spans in the same words.
    static func ourSpans(_ file: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        func g(_ v: Any?) -> String { String(format: "%.6g", (v as? Double) ?? .nan) }
        return list.map { s in
            let channel = (s["channel"] as? Int).map { "channel: \($0) " } ?? ""
            return "\(channel)\(g(s["start"])) \(g(s["end"])) \(g(s["duration"]))"
        }
    }

    static func runDetector(_ dir: String, input: String, port: String, node: String, params: String) throws -> CLI.Result {
        let r = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "det": { "type": "\(node)", "params": { \(params) } },
                     "out": { "type": "nullsink" } },
          "chains": [["src.\(port)", "det", "out"]] }
        """, in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        return r
    }

    /// Speech-like audio with silences at the start, in the middle, at the end, and stretches at
    /// the threshold's edge (16-bit values 31 and 32: ffmpeg compares 16-bit samples with
    /// 0.001·32767 truncated to 32, so 32 is not silent there while 32/32768 is as float), as
    /// 16-bit mono, 16-bit stereo with one channel going quiet alone, and float stereo, with the
    /// defaults, a shorter duration, a threshold in dB and per channel.
    @Test func silencesAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let tone = "sin(2*PI*440*t)*0.3"
        let mono = "if(lt(t,1.5),0,if(between(t,3,5.5),32/32768,if(between(t,6,8.2),31/32768,if(gt(t,10.5),0.0004*sin(2*PI*50*t),\(tone)))))"
        let left = "if(between(t,2,4.5),0,\(tone))", right = "if(between(t,3,7),0.0005*sin(2*PI*30*t),\(tone))"
        let sources: [(String, [String])] = [
            ("mono.wav", ["-f", "lavfi", "-i", "aevalsrc='\(mono)':s=44100:d=12", "-c:a", "pcm_s16le"]),
            ("stereo.wav", ["-f", "lavfi", "-i", "aevalsrc='\(left)|\(right)':s=48000:d=9", "-c:a", "pcm_s16le"]),
            ("stereo-float.wav", ["-f", "lavfi", "-i", "aevalsrc='\(left)|\(right)':s=48000:d=9", "-c:a", "pcm_f32le"]),
            ("mono-float.wav", ["-f", "lavfi", "-i", "aevalsrc='\(mono)':s=44100:d=12", "-c:a", "pcm_f32le"]),
        ]
        for (name, args) in sources {
            let m = try CLI.run("ffmpeg", ["-v", "error", "-y"] + args + [dir + "/" + name])
            #expect(m.status == 0, "\(m.stderr)")
        }
        let cases: [(String, String, String)] = [
            ("mono.wav", "", "silencedetect"),
            ("mono.wav", #""duration": 0.5"#, "silencedetect=d=0.5"),
            ("mono-float.wav", #""duration": 0.5"#, "silencedetect=d=0.5"),
            ("mono.wav", #""noise-db": -50, "duration": 1"#, "silencedetect=n=-50dB:d=1"),
            ("stereo.wav", #""duration": 1"#, "silencedetect=d=1"),
            ("stereo.wav", #""duration": 1, "noise": 0.01, "per-channel": true"#, "silencedetect=d=1:n=0.01:mono=1"),
            ("stereo-float.wav", #""duration": 0.25, "per-channel": true"#, "silencedetect=d=0.25:mono=1"),
        ]
        for (i, (input, params, filter)) in cases.enumerated() {
            let expected = Self.ffmpegSilences(try Self.ffmpegLines(dir + "/" + input, "-af", filter))
            let r = try Self.runDetector(dir, input: input, port: "audio", node: "silencedetect",
                                         params: params + (params.isEmpty ? "" : ", ") + #""path": "s\#(i).json""#)
            let ours = try Self.ourSpans(dir + "/s\(i).json")
            #expect(!expected.isEmpty && ours == expected, "\(input) \(filter): ours \(ours), ffmpeg \(expected)")
            // the notes say the same in ffmpeg's words
            #expect(r.stderr.components(separatedBy: "silence_start: ").count - 1 == expected.count, "\(r.stderr)")
        }
    }

    /// Black stretches of a limited-range H.264 file (black, a pattern, near-black, a pattern,
    /// black to the end), of the same as full range (yuvj420p) and as 10 bits, with the defaults
    /// and other thresholds.
    @Test func blackStretchesAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let pieces = "color=black:s=320x240:r=25:d=1.2[a];testsrc2=s=320x240:r=25:d=2[b];color=c=0x141414:s=320x240:r=25:d=2.4[c];"
            + "testsrc2=s=320x240:r=25:d=1,drawbox=w=40:h=40:c=black:t=fill[d];color=black:s=320x240:r=25:d=3[e];"
            + "[a][b][c][d][e]concat=n=5"
        let files: [(String, [String])] = [
            ("limited.mp4", ["-vf", "format=yuv420p", "-c:v", "libx264", "-qp", "0"]),
            ("full.mp4", ["-vf", "scale=out_range=pc,format=yuvj420p", "-c:v", "libx264", "-qp", "0"]),
            ("deep.mkv", ["-vf", "format=yuv420p10le", "-c:v", "libx264", "-qp", "0"]),
        ]
        for (name, args) in files {
            let m = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", pieces] + args + [dir + "/" + name])
            #expect(m.status == 0, "\(m.stderr)")
        }
        let cases: [(String, String, String)] = [
            ("limited.mp4", "", "blackdetect"),
            ("limited.mp4", #""duration": 0.5, "pixel-threshold": 0.02"#, "blackdetect=d=0.5:pix_th=0.02"),
            ("limited.mp4", #""duration": 0.5, "picture-ratio": 0.6, "pixel-threshold": 0.05"#, "blackdetect=d=0.5:pic_th=0.6:pix_th=0.05"),
            ("full.mp4", #""duration": 0.5"#, "blackdetect=d=0.5"),
            ("full.mp4", #""duration": 0.5, "pixel-threshold": 0.07"#, "blackdetect=d=0.5:pix_th=0.07"),
            ("deep.mkv", #""duration": 0.5, "pixel-threshold": 0.02"#, "blackdetect=d=0.5:pix_th=0.02"),
        ]
        for (i, (input, params, filter)) in cases.enumerated() {
            let expected = try Self.ffmpegLines(dir + "/" + input, "-vf", filter).filter { $0.hasPrefix("black_start:") }
            let r = try Self.runDetector(dir, input: input, port: "video", node: "blackdetect",
                                         params: params + (params.isEmpty ? "" : ", ") + #""path": "b\#(i).json""#)
            let ours = try Self.ourSpans(dir + "/b\(i).json").map { s -> String in
                let f = s.split(separator: " ")
                return "black_start:\(f[0]) black_end:\(f[1]) black_duration:\(f[2])"
            }
            #expect(!expected.isEmpty && ours == expected, "\(input) \(filter): ours \(ours), ffmpeg \(expected)")
            let notes = r.stderr.split(whereSeparator: \.isNewline).compactMap { l in l.range(of: "(blackdetect): ").map { String(l[$0.upperBound...]) } }
            #expect(notes == expected, "\(r.stderr)")
        }
    }

    /// Mean and peak level and histogram of 16-bit audio, of float audio (counted as 16-bit
    /// values as ffmpeg converts it), of float audio only a few 16-bit steps loud, and of silence, line for line as ffmpeg prints them.
    @Test func volumeFiguresAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let sources: [(String, [String])] = [
            ("speech.wav", ["-f", "lavfi", "-i", "aevalsrc='0.4*sin(2*PI*220*t)*sin(2*PI*0.5*t)|0.05*sin(2*PI*3000*t)':s=44100:d=6", "-c:a", "pcm_s16le"]),
            ("float.mka", ["-f", "lavfi", "-i", "anoisesrc=d=4:c=pink:a=0.3:seed=7", "-c:a", "pcm_f32le"]),
            // a few 16-bit steps loud: how a float sample becomes 16 bits shows in every figure
            ("quiet-float.mka", ["-f", "lavfi", "-i", "anoisesrc=d=2:c=white:a=0.0002:seed=5", "-c:a", "pcm_f32le"]),
            ("loud.wav", ["-f", "lavfi", "-i", "aevalsrc='if(lt(mod(n,3),1),-1,0.999)':s=8000:d=2", "-c:a", "pcm_s16le"]),
            ("zero.wav", ["-f", "lavfi", "-i", "anullsrc=r=22050:cl=mono", "-t", "1", "-c:a", "pcm_s16le"]),
        ]
        for (name, args) in sources {
            let m = try CLI.run("ffmpeg", ["-v", "error", "-y"] + args + [dir + "/" + name])
            #expect(m.status == 0, "\(m.stderr)")
        }
        for (name, _) in sources {
            let expected = try Self.ffmpegLines(dir + "/" + name, "-af", "volumedetect")
            let r = try Self.runDetector(dir, input: name, port: "audio", node: "volumedetect", params: #""path": "v.json""#)
            let notes = r.stderr.split(whereSeparator: \.isNewline).compactMap { l in l.range(of: "(volumedetect): ").map { String(l[$0.upperBound...]) } }
            #expect(expected.count >= 3 && notes == expected, "\(name): ours \(notes), ffmpeg \(expected)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/v.json"))) as? [String: Any])
            let mean = try #require(json["mean_volume"] as? Double), peak = try #require(json["max_volume"] as? Double)
            #expect(expected.contains("mean_volume: \(String(format: "%.1f", mean)) dB") && expected.contains("max_volume: \(String(format: "%.1f", peak)) dB"), "\(json)")
            #expect((json["samples"] as? Int).map { expected.contains("n_samples: \($0)") } == true, "\(json)")
        }
    }

    /// ffmpeg's cropdetect lines, each frame's, as (t, crop=…) with consecutive repeats dropped.
    static func cropChanges(_ lines: [String]) -> [String] {
        var out: [String] = []
        for l in lines where l.hasPrefix("x1:") {
            guard let t = l.range(of: " t:"), let c = l.range(of: " crop=") else { continue }
            let crop = String(l[c.upperBound...])
            if out.last.map({ !$0.hasSuffix(" " + crop) }) ?? true {
                out.append(String(l[t.upperBound..<c.lowerBound]) + " " + crop)
            }
        }
        return out
    }

    /// Suggested crops of letterboxed, pillarboxed and growing pictures, odd sizes, a bright
    /// line inside the border (with and without `max-outliers`), `reset`, `skip`, `round`, a limit
    /// as a luma value and 10-bit video: every change of the suggestion at the same frame as
    /// ffmpeg's (its per-frame lines) and the last line of the notes equal to ffmpeg's last line.
    @Test func cropSuggestionsAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let files: [(String, String)] = [
            ("letterbox.mp4", "testsrc2=s=1280x536:r=25:d=2,pad=1920:1080:(ow-iw)/2:(oh-ih)/2,format=yuv420p"),
            ("pillar.mp4", "testsrc2=s=301x239:r=25:d=2,pad=401:243:37:3,format=yuv444p"),
            // a picture that grows out of black: the suggestion widens frame by frame
            ("growing.mp4", "color=black:s=320x240:r=25:d=2,format=yuv420p[b];testsrc2=s=320x240:r=25:d=2[t];[b][t]overlay=x='-280+t*140':y='-200+t*100'"),
            ("outlier.mp4", "testsrc2=s=320x200:r=25:d=2,pad=320:240:0:20,drawbox=x=0:y=6:w=320:h=2:c=white:t=fill,format=yuv420p"),
            ("deep.mkv", "testsrc2=s=300x180:r=25:d=1,pad=320:240:10:30,format=yuv420p10le"),
        ]
        for (name, graph) in files {
            let m = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", graph, "-c:v", "libx264", "-qp", "0", dir + "/" + name])
            #expect(m.status == 0, "\(m.stderr)")
        }
        let cases: [(String, String, String)] = [
            ("letterbox.mp4", "", "cropdetect"),
            ("pillar.mp4", #""round": 2"#, "cropdetect=round=2"),
            ("pillar.mp4", #""round": 5, "skip": 0"#, "cropdetect=round=5:skip=0"),
            ("growing.mp4", #""round": 4"#, "cropdetect=round=4"),
            ("growing.mp4", #""round": 4, "reset": 10"#, "cropdetect=round=4:reset=10"),
            ("outlier.mp4", "", "cropdetect"),
            ("outlier.mp4", #""max-outliers": 2"#, "cropdetect=max_outliers=2"),
            ("letterbox.mp4", #""limit": 30"#, "cropdetect=limit=30"),
            ("deep.mkv", #""round": 2"#, "cropdetect=round=2"),
        ]
        for (i, (input, params, filter)) in cases.enumerated() {
            let lines = try Self.ffmpegLines(dir + "/" + input, "-vf", filter)
            let expected = Self.cropChanges(lines)
            let r = try Self.runDetector(dir, input: input, port: "video", node: "cropdetect",
                                         params: params + (params.isEmpty ? "" : ", ") + #""path": "c\#(i).json""#)
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/c\(i).json"))
            let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
            let ours = list.map { String(format: "%f", ($0["time"] as? Double) ?? .nan) + " " + (($0["crop"] as? String) ?? "?") }
            #expect(!expected.isEmpty && ours == expected, "\(input) \(filter): ours \(ours), ffmpeg \(expected)")
            let last = lines.last(where: { $0.hasPrefix("x1:") })
            #expect(last != nil && r.stderr.contains("(cropdetect): " + (last ?? "?")), "\(input) \(filter): \(last ?? "-") in \(r.stderr)")
        }
    }

    /// A limit compared as ffmpeg compares it: rows whose mean luma is exactly 24 or 23 (gray
    /// frames written here), against limits 24/255 (23.99…), 23.4, 23.5 and 22.5: rounded to a
    /// whole value with ties to even, a line is border while its mean is at most that.
    @Test func cropLimitIsRoundedAsFFmpegRoundsIt() throws {
        let dir = CLI.tempDir()
        let w = 64, h = 48
        var frame = [UInt8](repeating: 128, count: w * h)
        for y in 0..<h { for x in 0..<w where y < 10 || x < 6 || y > 40 { frame[y * w + x] = y > 40 && x >= 6 ? 23 : 24 } }
        try Data((0..<4).flatMap { _ in frame }).write(to: URL(fileURLWithPath: dir + "/g.gray"))
        for (limit, option) in [("0.0941176470588", "cropdetect=round=2"), ("23.4", "cropdetect=round=2:limit=23.4"),
                                ("23.5", "cropdetect=round=2:limit=23.5"), ("22.5", "cropdetect=round=2:limit=22.5")] {
            let f = try CLI.run("ffmpeg", ["-hide_banner", "-nostats", "-f", "rawvideo", "-pix_fmt", "gray", "-s", "\(w)x\(h)", "-r", "25",
                                           "-i", dir + "/g.gray", "-vf", option, "-f", "null", "-"])
            let last = f.stderr.split(whereSeparator: \.isNewline).last(where: { $0.contains("crop=") }).flatMap { $0.range(of: "x1:").map { l in String(f.stderr[l.lowerBound...].prefix(while: { $0 != "\n" })) } }
            let r = try CLI.mediagraph("run", CLI.writeGraph("""
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "g.gray", "width": \(w), "height": \(h), "format": "gray" } },
                         "det": { "type": "cropdetect", "params": { "round": 2, "limit": \(limit) } }, "out": { "type": "nullsink" } },
              "chains": [["src", "det", "out"]] }
            """, in: dir))
            let crop = last.flatMap { line in line.range(of: "crop=").map { String(line[$0.lowerBound...]) } }
            #expect(crop != nil && r.stderr.contains("(cropdetect): ") && r.stderr.contains(crop ?? "?"), "limit \(limit): ffmpeg \(last ?? "-"), ours \(r.stderr)")
        }
    }

    /// Scene changes of cuts between patterns, a fade and a cut back, as 8-bit YUV, 10-bit YUV
    /// and BGRA (every byte compared, as ffmpeg does for packed RGB), with the default threshold
    /// and 5: the same times and scores (3 decimals) as ffmpeg's scdet lines, our JSON's scores
    /// rounding to them; with `changes-only` exactly the changed pictures pass.
    @Test func sceneChangesAreFFmpegs() throws {
        let dir = CLI.tempDir()
        let cuts = "testsrc2=s=320x240:r=25:d=2[a];color=red:s=320x240:r=25:d=1[b];testsrc=s=320x240:r=25:d=1.5,fade=out:st=0.5:d=1[c];"
            + "mandelbrot=s=320x240:r=25,trim=duration=1.2[d];[a][b][c][d]concat=n=4"
        let files: [(String, [String])] = [
            ("cuts.mp4", ["-vf", "format=yuv420p", "-c:v", "libx264", "-qp", "0"]),
            ("cuts10.mkv", ["-vf", "format=yuv422p10le", "-c:v", "libx264", "-qp", "0"]),
            ("cuts-bgra.mkv", ["-vf", "format=bgra", "-c:v", "ffv1"]),
        ]
        for (name, args) in files {
            let m = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", cuts] + args + [dir + "/" + name])
            #expect(m.status == 0, "\(m.stderr)")
        }
        for (i, (input, params, filter)) in [("cuts.mp4", "", "scdet"), ("cuts.mp4", #""threshold": 5"#, "scdet=t=5"),
                                             ("cuts10.mkv", "", "scdet"), ("cuts-bgra.mkv", #""threshold": 5"#, "scdet=t=5")].enumerated() {
            let expected = try Self.ffmpegLines(dir + "/" + input, "-vf", filter).filter { $0.hasPrefix("lavfi.scd.score") }
            let r = try Self.runDetector(dir, input: input, port: "video", node: "scenedetect",
                                         params: params + (params.isEmpty ? "" : ", ") + #""path": "sc\#(i).json""#)
            #expect(!r.stderr.contains("(convert)"), "\(r.stderr)")
            let notes = r.stderr.split(whereSeparator: \.isNewline).compactMap { l in l.range(of: "(scenedetect): ").map { String(l[$0.upperBound...]) } }
            #expect(expected.count >= 2 && notes == expected, "\(input) \(filter): ours \(notes), ffmpeg \(expected)")
            let list = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/sc\(i).json"))) as? [[String: Any]])
            let fromFile = list.map { "lavfi.scd.score: \(String(format: "%.3f", ($0["score"] as? Double) ?? .nan)), lavfi.scd.time: \(String(format: "%.6g", ($0["time"] as? Double) ?? .nan))" }
            #expect(fromFile == expected, "\(fromFile)")
        }
        let r = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "cuts.mp4" } },
                     "det": { "type": "scenedetect", "params": { "changes-only": true } },
                     "out": { "type": "framehash", "params": { "path": "changes.txt" } } },
          "chains": [["src.video", "det", "out"]] }
        """, in: dir, name: "only.json"))
        #expect(r.status == 0, "\(r.stderr)")
        let changes = try Self.ffmpegLines(dir + "/cuts.mp4", "-vf", "scdet").filter { $0.hasPrefix("lavfi.scd.score") }.count
        let passed = try String(contentsOfFile: dir + "/changes.txt", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        #expect(changes >= 2 && passed == changes, "\(passed) pictures passed, \(changes) scene changes")
    }

    /// Float audio passes through `volumedetect` as it came (ffmpeg would pass it on as 16 bits):
    /// the samples written after it are ffmpeg's decode of the file, byte for byte.
    @Test func volumedetectPassesFloatAudioUnchanged() throws {
        let dir = CLI.tempDir()
        let m = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=2:c=pink:a=0.3:seed=3", "-ac", "2", "-c:a", "pcm_f32le", dir + "/in.wav"])
        #expect(m.status == 0, "\(m.stderr)")
        let d = try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/in.wav", "-f", "f32le", dir + "/ref.f32"])
        #expect(d.status == 0, "\(d.stderr)")
        let r = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "in.wav" } }, "det": { "type": "volumedetect" },
                     "out": { "type": "pcmsink", "params": { "path": "out.f32" } } },
          "chains": [["src.audio", "det", "out"]] }
        """, in: dir))
        #expect(r.status == 0 && !r.stderr.contains("(resample)"), "\(r.stderr)")
        let ours = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.f32"))
        let reference = try Data(contentsOf: URL(fileURLWithPath: dir + "/ref.f32"))
        #expect(ours.count > 0 && ours == reference)
    }

    /// A detector's file appears whole or not at all: a run that fails later leaves none.
    @Test func failedRunLeavesNoFile() throws {
        let dir = CLI.tempDir()
        let r = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "a": { "type": "sine", "params": { "seconds": 3 } },
                     "det": { "type": "silencedetect", "params": { "path": "spans.json" } },
                     "bad": { "type": "wavsink", "params": { "path": "/proc/nonexistent/dir/out.wav" } } },
          "chains": [["a", "det", "bad"]] }
        """, in: dir))
        #expect(r.status != 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/spans.json"))
        let both = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "a": { "type": "sine" }, "det": { "type": "silencedetect", "params": { "noise": 0.1, "noise-db": -20 } }, "n": { "type": "nullsink" } },
          "chains": [["a", "det", "n"]] }
        """, in: dir))
        #expect(both.status != 0 && both.stderr.contains("'noise' and 'noise-db'"), "\(both.stderr)")
    }
}
