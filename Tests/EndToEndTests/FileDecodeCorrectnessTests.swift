import Foundation
import Testing

/// Issue 10's correctness list, through the CLI: each file is read by `filesrc`, its streams
/// decoded by a `decode` node and hashed per frame (`framehash`); ffmpeg decodes the same
/// stream of the same file (`-f framemd5`). Video: the same pictures at the same times, in the
/// stream's time base. Audio: the same samples in the same frames at the same times, both sides
/// as packed f32 (a lossless reshuffle of libavcodec's planar float). Inputs are made by ffmpeg,
/// small and short.
@Suite struct FileDecodeCorrectnessTests {
    /// One stream to compare: our port and ffmpeg's `-map` for it.
    struct Stream: Sendable {
        var port: String
        var map: String
        var isAudio: Bool { port.hasPrefix("audio") }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var make: [String]
        var streams: [Stream]
        /// frames ffmpeg must find in the first stream (so that an empty decode cannot pass)
        var frames: Int
        /// options of a second ffmpeg run copying the file (what ffmpeg writes only when copying)
        var copyOptions: [String] = []
        var testDescription: String { name }
    }

    static let video25 = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25"]
    static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"]

    static let cases: [Case] = [
        Case(name: "H.264 with B-frames and AAC in MP4", file: "in.mp4",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libx264", "-bf", "3", "-g", "12", "-c:a", "aac"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "HEVC Main 10 in MP4", file: "in.mp4",
             make: video25 + ["-t", "1", "-c:v", "libx265", "-x265-params", "log-level=error:bframes=3",
                              "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 25),
        Case(name: "VP9 and Opus in WebM", file: "in.webm",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                                     "-c:a", "libopus"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "H.264 and AC-3 in Matroska", file: "in.mkv",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libx264", "-bf", "2", "-c:a", "ac3"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "MPEG-2 video and MP2 in MPEG-TS", file: "in.ts",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "mpeg2video", "-bf", "2", "-q:v", "4", "-c:a", "mp2"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "H.264 and AAC in MPEG-TS", file: "in.ts",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libx264", "-bf", "2", "-c:a", "aac"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        // read alone, the video starts at zero although the file (its audio) starts earlier
        Case(name: "H.264 in MPEG-TS, its audio not read", file: "in.ts",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libx264", "-bf", "2", "-c:a", "aac"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 25),
        // uncompressed video says its pixel format only in the container: the rawvideo decoder
        // refused to open without it ("Invalid pixel format")
        Case(name: "uncompressed yuv444p in Y4M", file: "in.y4m", make: video25 + ["-t", "1", "-pix_fmt", "yuv444p"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 25),
        Case(name: "uncompressed bgra in AVI", file: "in.avi", make: video25 + ["-t", "1", "-c:v", "rawvideo", "-pix_fmt", "bgra"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 25),
        // audio decoders that open only with what the container states: the block size (WMA,
        // IMA ADPCM: "block_align is not set") or the bits per sample (G.726: "Invalid number of bits 0")
        Case(name: "IMA ADPCM in WAV", file: "in.wav", make: tone + ["-t", "1", "-c:a", "adpcm_ima_wav"],
             streams: [Stream(port: "audio", map: "0:a:0")], frames: 24),
        Case(name: "G.726 in WAV", file: "in.wav", make: tone + ["-t", "1", "-ar", "8000", "-c:a", "adpcm_g726"],
             streams: [Stream(port: "audio", map: "0:a:0")], frames: 1),
        Case(name: "WMA", file: "in.wma", make: tone + ["-t", "1", "-c:a", "wmav2"],
             streams: [Stream(port: "audio", map: "0:a:0")], frames: 23),
        Case(name: "fragmented MP4", file: "in.mp4",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "libx264", "-bf", "2", "-g", "10", "-c:a", "aac",
                                     "-movflags", "frag_keyframe+empty_moov+default_base_moof"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "MJPEG and PCM in AVI", file: "in.avi",
             make: video25 + tone + ["-t", "1", "-shortest", "-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj422p", "-c:a", "pcm_s16le"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 25),
        Case(name: "two audio tracks", file: "in.mp4",
             make: video25 + tone + ["-f", "lavfi", "-i", "sine=frequency=220:sample_rate=44100", "-t", "1",
                                     "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-c:a", "aac", "-ac:a:1", "2"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0"), Stream(port: "audio1", map: "0:a:1")],
             frames: 25),
        Case(name: "odd size 385x289", file: "in.mp4",
             make: ["-f", "lavfi", "-i", "testsrc2=size=385x289:rate=25", "-t", "1", "-c:v", "libx264", "-bf", "2", "-pix_fmt", "yuv420p"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 25),
        // a phone's file: portrait by its display matrix (ffmpeg 5.1 writes it when copying),
        // full-range 4:2:0, 30 fps on a 1/90000 clock, AAC 44.1 kHz stereo, a creation time
        // (ffmpeg's framemd5 would rotate the pictures; -noautorotate compares them as stored,
        // which is what a decoder yields)
        Case(name: "rotated phone-style MOV", file: "in.mov",
             make: ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
                    "-t", "1", "-shortest", "-c:v", "libx264", "-profile:v", "high", "-bf", "0", "-pix_fmt", "yuvj420p",
                    "-video_track_timescale", "90000", "-c:a", "aac", "-ac", "2"],
             streams: [Stream(port: "video", map: "0:v:0"), Stream(port: "audio", map: "0:a:0")], frames: 30,
             copyOptions: ["-metadata:s:v:0", "rotate=90", "-metadata", "creation_time=2026-06-01T12:00:00Z"]),
        Case(name: "variable frame rate", file: "in.mkv",
             make: ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                    "-vf", "setpts='(N+0.4*mod(N,3)+if(gt(N,20),2,0))/30/TB'", "-fps_mode", "vfr", "-c:v", "libx264", "-bf", "2"],
             streams: [Stream(port: "video", map: "0:v:0")], frames: 58),
    ]

    /// (pts, size, md5) per frame of our framehash file.
    static func ours(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { l in let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return "\(f[1]) \(f[2]) \(f[3])" }
    }

    /// (pts, size, md5) per frame of ffmpeg's framemd5 of each stream, in the stream's time base
    /// (video) or in samples (audio, packed f32). ffmpeg reads the same streams as our graph
    /// (which ones are read moves zero in an MPEG-TS).
    static func theirs(_ input: String, _ streams: [Stream]) throws -> [[String]] {
        let maps = streams.flatMap { ["-map", $0.map] }
        let r = try CLI.run("ffmpeg", ["-v", "error", "-noautorotate", "-i", input] + maps
                            + ["-c:a", "pcm_f32le", "-fps_mode", "passthrough", "-enc_time_base:v", "-1", "-f", "framemd5", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        var out = [[String]](repeating: [], count: streams.count)
        for l in r.out.split(separator: "\n") where !l.hasPrefix("#") {
            let f = l.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let k = Int(f[0]), out.indices.contains(k) { out[k].append("\(f[2]) \(f[4]) \(f[5])") }
        }
        return out
    }

    /// Samples by which ffmpeg's audio frame times may differ from ours: ffmpeg moves a frame's
    /// time by the samples the decoder skipped (Opus pre-skip) in the container's time base
    /// (1 ms in Matroska), rounded; ours counts on the sample clock, exactly. The samples
    /// themselves must be equal.
    static func audioClockSlack(_ input: String, _ s: Stream) throws -> Int64 {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", s.map.replacingOccurrences(of: "0:", with: ""),
                                        "-show_entries", "stream=time_base,sample_rate", "-of", "default=noprint_wrappers=1", input])
        var values: [String: String] = [:]
        for line in r.out.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { values[String(kv[0])] = String(kv[1]) }
        }
        let tb = (values["time_base"] ?? "").split(separator: "/").compactMap { Int64($0) }
        guard let rate = Int64(values["sample_rate"] ?? ""), tb.count == 2, tb[1] > 0 else { return 0 }
        return (rate * tb[0] + tb[1] - 1) / tb[1] / 2
    }

    @Test(arguments: cases)
    func decodedStreamsAreFFmpegsFrames(_ c: Case) throws {
        let dir = CLI.tempDir()
        let input = dir + "/" + c.file
        if c.copyOptions.isEmpty {
            try FileSourceTests.ffmpeg(c.make + [input])
        } else {
            try FileSourceTests.ffmpeg(c.make + [dir + "/made." + (c.file.split(separator: ".").last ?? "")])
            try FileSourceTests.ffmpeg(["-i", dir + "/made." + (c.file.split(separator: ".").last ?? ""), "-map", "0", "-c", "copy"]
                                       + c.copyOptions + [input])
            let rotation = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation",
                                                   "-of", "csv=p=0", input]).out
            if c.copyOptions.contains("rotate=90") { #expect(rotation.hasPrefix("90"), "the input is rotated: \(rotation)") }
        }
        // one decoder per stream, by hand; audio then interleaved to f32 (ffmpeg's pcm_f32le)
        var nodes = [#""in": { "type": "filesrc", "params": { "path": "\#(c.file)" } }"#]
        var chains: [String] = []
        for s in c.streams {
            nodes.append(#""d_\#(s.port)": { "type": "decode" }"#)
            nodes.append(#""h_\#(s.port)": { "type": "framehash", "params": { "path": "\#(s.port).txt" } }"#)
            if s.isAudio {
                nodes.append(#""r_\#(s.port)": { "type": "resample", "params": { "format": "f32" } }"#)
                chains.append(#"["in.\#(s.port)", "d_\#(s.port)", "r_\#(s.port)", "h_\#(s.port)"]"#)
            } else {
                chains.append(#"["in.\#(s.port)", "d_\#(s.port)", "h_\#(s.port)"]"#)
            }
        }
        let g = CLI.writeGraph("{ \"nodes\": { \(nodes.joined(separator: ", ")) }, \"chains\": [\(chains.joined(separator: ", "))] }", in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(c.name): \(r.stderr)")
        let all = try Self.theirs(input, c.streams)
        for (k, s) in c.streams.enumerated() {
            let ours = Self.ours(dir + "/\(s.port).txt"), theirs = all[k]
            if k == 0 { #expect(theirs.count == c.frames, "\(c.name): ffmpeg decodes \(theirs.count) frames") }
            let slack = s.isAudio ? try Self.audioClockSlack(input, s) : 0
            func same(_ a: String, _ b: String) -> Bool {
                let x = a.split(separator: " "), y = b.split(separator: " ")
                guard x.count == 3, y.count == 3, x[1...] == y[1...], let p = Int64(x[0]), let q = Int64(y[0]) else { return false }
                return abs(p - q) <= slack
            }
            let first = ours.indices.first { $0 >= theirs.count || !same(ours[$0], theirs[$0]) } ?? (ours.count < theirs.count ? ours.count : nil)
            #expect(first == nil, "\(c.name) \(s.port): \(ours.count) frames, ffmpeg \(theirs.count); first difference at \(first ?? -1): \(first.map { $0 < ours.count ? ours[$0] : "-" } ?? "") vs \(first.map { $0 < theirs.count ? theirs[$0] : "-" } ?? "")")
        }
    }

    /// Stored layouts MediaGraph has no format for decode to the nearest one, converted from the
    /// first picture as planned: yuyv422 (AVI) and nv12 (NUT) uncompressed, 12-bit HEVC, and
    /// QuickTime Animation (qtrle, whose decoder needs the container's bits per sample: it
    /// refused to open with "Unsupported colorspace: 0 bits/sample?"). The frames are ffmpeg's
    /// conversion of the same file to that format, and no warning calls it a format change (one
    /// did for each before).
    @Test(arguments: [("yuyv422 in AVI", "avi", ["-c:v", "rawvideo", "-pix_fmt", "yuyv422"], "yuv422p"),
                      ("nv12 in NUT", "nut", ["-c:v", "rawvideo", "-pix_fmt", "nv12"], "yuv420p"),
                      // every chroma sample kept: 4:1:1 (DV NTSC) into 4:2:2, 4:4:0 into 4:4:4
                      ("4:1:1 in NUT", "nut", ["-c:v", "rawvideo", "-pix_fmt", "yuv411p"], "yuv422p"),
                      ("4:4:0 in NUT", "nut", ["-c:v", "rawvideo", "-pix_fmt", "yuv440p"], "yuv444p"),
                      ("12-bit HEVC", "mkv", ["-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p12le"], "yuv420p10le"),
                      ("QuickTime Animation", "mov", ["-c:v", "qtrle"], "rgba")])
    func storedLayoutsAreConvertedWithoutAWarning(_ name: String, _ container: String, _ encode: [String], _ declared: String) throws {
        let dir = CLI.tempDir()
        let input = dir + "/in." + container
        try FileSourceTests.ffmpeg(Self.video25 + ["-t", "0.4"] + encode + [input])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, "d": { "type": "decode" },
                     "h": { "type": "framehash", "params": { "path": "\(dir)/h.txt" } } },
          "chains": [["in.video", "d", "h"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.stderr)")
        let ffmpeg = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-pix_fmt", declared, "-f", "framemd5", "-"])
        let md5 = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) } }
        let theirs = md5(ffmpeg.out)
        #expect(theirs.count == 10, "\(name)")
        #expect(md5((try? String(contentsOfFile: dir + "/h.txt", encoding: .utf8)) ?? "") == theirs, "\(name)")
    }
}
