import Foundation
import Testing

/// `deinterlace` against ffmpeg 5.1's `yadif` on the same decoded frames: every picture's bytes
/// (MD5), the frame count, and each frame's time and duration in seconds (ffmpeg's framemd5
/// with `-enc_time_base -1`, our framehash with `times`), in every mode and parity, from
/// interlaced MPEG-2 (field order in the bitstream) and FFV1 (any format, odd sizes, field
/// order per frame, some frames not interlaced).
@Suite struct DeinterlaceTests {
    struct Frame: Equatable {
        /// pts and duration in seconds, as exact fractions num/den
        var pts: (Int64, Int64), duration: (Int64, Int64)
        var md5: String
        static func == (a: Frame, b: Frame) -> Bool { a.md5 == b.md5 && same(a.pts, b.pts) && same(a.duration, b.duration) }
        static func same(_ a: (Int64, Int64), _ b: (Int64, Int64)) -> Bool { a.0 * b.1 == b.0 * a.1 }
    }

    /// Our framehash lines with times: index, pts, duration, time base, size, md5.
    static func ours(_ path: String) -> [Frame] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let tb = f[3].split(separator: "/").map { Int64($0)! }
            return Frame(pts: (Int64(f[1])! * tb[0], tb[1]), duration: (Int64(f[2])! * tb[0], tb[1]), md5: f[5])
        }
    }

    /// ffmpeg's framemd5: "#tb 0: num/den", then stream, dts, pts, duration, size, md5.
    static func theirs(_ path: String) -> [Frame] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var tb: [Int64] = [1, 1]
        var out: [Frame] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#tb 0:") { tb = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: "/").map { Int64($0)! } }
            if line.hasPrefix("#") { continue }
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            out.append(Frame(pts: (Int64(f[2])! * tb[0], tb[1]), duration: (Int64(f[3])! * tb[0], tb[1]), md5: f[5]))
        }
        return out
    }

    static let yadifMode = ["frame": 0, "field": 1, "frame-nospatial": 2, "field-nospatial": 3]
    static let yadifParity = ["tff": 0, "bff": 1, "auto": -1]

    /// Runs `file` through one deinterlace node per setting (one graph) and ffmpeg's yadif once
    /// per setting; returns ours and theirs for each.
    static func run(_ file: String, in dir: String, _ settings: [(mode: String, parity: String, deint: String)]) throws -> [([Frame], [Frame])] {
        var nodes = [#""in": { "type": "filesrc", "params": { "path": "\#(file)" } }"#]
        var chains: [String] = []
        for (k, s) in settings.enumerated() {
            nodes.append(#""d\#(k)": { "type": "deinterlace", "params": { "mode": "\#(s.mode)", "parity": "\#(s.parity)", "deint": "\#(s.deint)" } }"#)
            nodes.append(#""o\#(k)": { "type": "framehash", "params": { "path": "ours\#(k).txt", "times": true } }"#)
            chains.append(#"["in.video", "d\#(k)", "o\#(k)"]"#)
        }
        let g = CLI.writeGraph(#"{ "nodes": { \#(nodes.joined(separator: ", ")) }, "chains": [\#(chains.joined(separator: ", "))] }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        return try settings.enumerated().map { k, s in
            let filter = "yadif=\(yadifMode[s.mode]!):\(yadifParity[s.parity]!):\(s.deint == "all" ? 0 : 1)"
            let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/" + file, "-vf", filter, "-fps_mode", "passthrough",
                                           "-enc_time_base", "-1", "-f", "framemd5", dir + "/theirs\(k).txt"])
            #expect(f.status == 0, "\(f.stderr)")
            return (ours(dir + "/ours\(k).txt"), theirs(dir + "/theirs\(k).txt"))
        }
    }

    static func firstDifference(_ a: [Frame], _ b: [Frame]) -> String {
        guard let i = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else { return "none" }
        return "frame \(i): ours \(a[i]) theirs \(b[i])"
    }

    /// Interlaced MPEG-2 in MPEG-TS, bottom field first in the bitstream: `auto` must read it
    /// (it differs from `tff`), every mode and parity the same as ffmpeg.
    @Test func mpeg2EveryModeAndParityIsFFmpegs() throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=50:duration=0.8,interlace=scan=bff",
                                        "-c:v", "mpeg2video", "-flags", "+ilme+ildct", "-top", "0", "-q:v", "3", dir + "/in.ts"])
        #expect(r0.status == 0, "\(r0.stderr)")
        var settings: [(mode: String, parity: String, deint: String)] = []
        for m in ["frame", "field", "frame-nospatial", "field-nospatial"] { for p in ["auto", "tff", "bff"] { settings.append((m, p, "all")) } }
        let results = try Self.run("in.ts", in: dir, settings)
        for (s, (ours, theirs)) in zip(settings, results) {
            #expect(ours.count == (s.mode.hasPrefix("field") ? 40 : 20), "\(s): \(ours.count) frames")
            #expect(ours == theirs, "\(s): \(ours.count) frames vs ffmpeg's \(theirs.count); first difference: \(Self.firstDifference(ours, theirs))")
        }
        // the field order came from the decoder: auto is bff here, not the default tff
        #expect(results[0].0.map(\.md5) == results[2].0.map(\.md5) && results[0].0.map(\.md5) != results[1].0.map(\.md5))
    }

    /// Every format, odd sizes, down to 3x3 (4:2:0 chroma planes 2 pixels wide and high).
    @Test(arguments: [("yuv420p", "353x289"), ("yuv422p", "353x289"), ("yuv444p", "353x289"), ("gray", "353x289"),
                      ("yuv420p10le", "353x289"), ("yuv422p10le", "37x21"), ("yuv420p", "3x3"), ("yuv420p", "5x4"), ("gray", "7x3")])
    func formatsAndOddSizesAreFFmpegs(_ format: String, _ size: String) throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=50:duration=0.4",
                                        "-vf", "scale=\(size),interlace,setfield=bff,format=\(format)", "-c:v", "ffv1", "-level", "3",
                                        // FFV1 version 3 keeps the field order; tiny pictures take one slice only
                                        "-slices", size.count > 3 ? "4" : "1", dir + "/in.nut"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let settings: [(mode: String, parity: String, deint: String)] = [("frame", "auto", "all"), ("field", "auto", "all"), ("field", "tff", "all")]
        for (s, (ours, theirs)) in zip(settings, try Self.run("in.nut", in: dir, settings)) {
            #expect(!ours.isEmpty && ours == theirs, "\(format) \(size) \(s): \(ours.count) frames vs ffmpeg's \(theirs.count); first difference: \(Self.firstDifference(ours, theirs))")
        }
    }

    /// Frames flagged top first, then progressive, then bottom first: `deint: interlaced` passes
    /// the progressive ones through untouched, `auto` follows each frame's field order.
    @Test func onlyFramesFlaggedInterlacedAreDeinterlaced() throws {
        let dir = CLI.tempDir()
        let graph = "[0]interlace,split=3[a][b][c];[a]trim=end_frame=6,setfield=tff[x];"
            + "[b]trim=start_frame=6:end_frame=12,setpts=PTS-STARTPTS,setfield=prog[y];"
            + "[c]trim=start_frame=12,setpts=PTS-STARTPTS,setfield=bff[z];[x][y][z]concat=n=3"
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=353x289:rate=50:duration=0.72",
                                        "-filter_complex", graph, "-c:v", "ffv1", "-level", "3", "-slices", "4", dir + "/in.nut"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let settings: [(mode: String, parity: String, deint: String)] = [("frame", "auto", "interlaced"), ("field", "auto", "interlaced"),
                                                                          ("frame", "auto", "all"), ("field", "bff", "interlaced")]
        let results = try Self.run("in.nut", in: dir, settings)
        for (s, (ours, theirs)) in zip(settings, results) {
            // a frame passed through in a field mode lasts a whole frame here (until the next
            // output); ffmpeg 5.1's command line gives every frame of a field mode half a frame
            let passedThrough = s.mode == "field" && s.deint == "interlaced"
            let compared = passedThrough ? theirs.enumerated().map { i, f in
                var f = f
                if i + 1 < theirs.count, !Frame.same((f.pts.0 + f.duration.0, f.pts.1), theirs[i + 1].pts) {
                    f.duration = (f.duration.0 * 2, f.duration.1)
                }
                return f
            } : theirs
            #expect(ours.count == (s.mode == "field" ? (s.deint == "all" ? 36 : 30) : 18), "\(s): \(ours.count) frames")
            #expect(ours == compared, "\(s): \(ours.count) frames vs ffmpeg's \(theirs.count); first difference: \(Self.firstDifference(ours, compared))")
        }
        // the progressive frames (6 to 11) came through as they were decoded
        let dec = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.nut", "-f", "framemd5", dir + "/decoded.txt"])
        #expect(dec.status == 0, "\(dec.stderr)")
        let decoded = Self.theirs(dir + "/decoded.txt").map(\.md5)
        #expect(Array(results[0].0.map(\.md5)[6..<12]) == Array(decoded[6..<12]))
        #expect(Array(results[2].0.map(\.md5)[6..<12]) != Array(decoded[6..<12]))
    }

    /// One frame, and two: the first frame stands in for its predecessor, the last for its
    /// successor, as in ffmpeg.
    @Test(arguments: [1, 2])
    func shortStreamsAreFFmpegs(_ frames: Int) throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "\(frames)",
                                        "-vf", "setfield=tff", "-c:v", "ffv1", dir + "/in.nut"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let settings: [(mode: String, parity: String, deint: String)] = [("frame", "auto", "all"), ("field", "auto", "all")]
        for (s, (ours, theirs)) in zip(settings, try Self.run("in.nut", in: dir, settings)) {
            #expect(ours.count == frames * (s.mode == "field" ? 2 : 1) && ours == theirs, "\(s): \(ours.count) vs \(theirs.count); \(Self.firstDifference(ours, theirs))")
        }
    }

    /// Pictures under 3 rows or columns are refused when the graph is checked, saying why.
    @Test(arguments: [(4, 1), (2, 8), (8, 2)])
    func tinyPicturesAreRefused(_ width: Int, _ height: Int) throws {
        let dir = CLI.tempDir()
        FileManager.default.createFile(atPath: dir + "/in.raw", contents: Data(repeating: 128, count: width * height * 4))
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \(width), "height": \(height), "format": "gray", "rate": 25 } },
                     "d": { "type": "deinterlace" }, "out": { "type": "nullsink" } },
          "chains": [["src", "d", "out"]] }
        """, in: dir)
        for command in ["validate", "run"] {
            let r = try CLI.mediagraph(command, g)
            #expect(r.status == 2 && r.stderr.contains("node 'd'") && r.stderr.contains("\(width)x\(height)")
                    && r.stderr.contains("at least 3 columns and 3 rows"), "\(command): \(r.status) \(r.stderr)")
        }
    }

    /// A stream its container says is interlaced, decoded and encoded as it is, gets a note
    /// naming the encoder and the field order (ffprobe's field_order of the same file); after a
    /// `deinterlace` node, or coded progressive, it gets none.
    @Test(arguments: [("1", "tt", "top field first"), ("0", "bb", "bottom field first")])
    func decodedInterlacedFramesGetANoteUntilDeinterlaced(_ top: String, _ probed: String, _ words: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-t", "0.4", "-vf", "interlace",
                               "-c:v", "mpeg2video", "-flags", "+ilme+ildct", "-top", top, dir + "/in.ts"])
        let order = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=field_order", "-of", "csv=p=0", dir + "/in.ts"])
        try #require(order.out.hasPrefix(probed + ","), "ffprobe: \(order.out)")
        func notes(_ nodes: String, _ chain: String) throws -> String {
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.ts" } }, \(nodes)
                         "mux": { "type": "mp4", "params": { "path": "o.mp4" } } },
              "chains": [[\(chain)]] }
            """, in: dir)
            let r = try CLI.mediagraph("validate", g)
            #expect(r.status == 0, "\(r.stderr)")
            return r.out + r.stderr
        }
        let plain = try notes("\"enc\": { \"type\": \"h264\" },", "\"in.video\", \"enc\", \"mux.video\"")
        #expect(plain.contains("note: 'enc' (h264) gets interlaced frames (\(words)): they show combing"), "\(plain)")
        let deinterlaced = try notes("\"d\": { \"type\": \"deinterlace\" }, \"enc\": { \"type\": \"h264\" },",
                                     "\"in.video\", \"d\", \"enc\", \"mux.video\"")
        #expect(!deinterlaced.contains("interlaced frames"), "\(deinterlaced)")
        // the same pictures coded progressive: no note
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25", "-t", "0.4", "-c:v", "mpeg2video", dir + "/in.ts"])
        let progressive = try notes("\"enc\": { \"type\": \"h264\" },", "\"in.video\", \"enc\", \"mux.video\"")
        #expect(!progressive.contains("interlaced frames"), "\(progressive)")
    }
}
