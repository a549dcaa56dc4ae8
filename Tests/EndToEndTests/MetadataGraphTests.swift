import Foundation
import Testing

/// Colour, aspect, chroma siting, rotation and bit depth through whole graphs, read back by
/// ffprobe and compared with what ffmpeg makes of the same input.
@Suite struct MetadataGraphTests {
    /// ffprobe's rotation of the first video stream (display matrix side data), 0 when none.
    static func rotation(_ file: String) throws -> Int {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream_side_data=rotation",
                                        "-of", "default=noprint_wrappers=1:nokey=1", file])
        return Int(r.out.split(separator: "\n").first ?? "0") ?? 0
    }

    /// `y4msrc → h264` is byte-identical to `ffmpeg -i same.y4m -c:v libx264` with the same
    /// settings, also when the header gives a non-square aspect, left chroma siting and the
    /// range (which x264 writes into the VUI). Checked end to end: see Docs/codecs.md for why
    /// x264's bytes are compared across processes.
    @Test(arguments: [[String](), ["-vf", "setsar=4/3", "-chroma_sample_location", "left", "-color_range", "tv"],
                      ["-chroma_sample_location", "topleft", "-color_range", "pc"]])
    func y4mToH264IsByteIdenticalToFFmpeg(_ tags: [String]) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "30", "-pix_fmt", "yuv420p"]
                    + tags + [dir + "/in.y4m"])
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.y4m", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-bf", "3",
                               "-g", "20", "-f", "h264", dir + "/ffmpeg.h264"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "enc": { "type": "h264", "params": { "preset": "veryfast", "crf": 23, "bframes": 3, "keyint": 20 } },
                     "out": { "type": "h264sink", "params": { "path": "ours.h264" } } },
          "chains": [["src", "enc", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.h264"), theirs = FileManager.default.contents(atPath: dir + "/ffmpeg.h264")
        #expect(ours != nil && ours == theirs, "same library, same settings, same Y4M: the streams should be identical")
        if !tags.isEmpty {
            let p = try CLI.probe(dir + "/ours.h264", "sample_aspect_ratio,chroma_location,color_range")
            // x264 signals the range only when it is full (limited is the VUI's default)
            let expected = tags.contains("left") ? ["4:3", "left", "unknown"] : ["1:1", "topleft", "pc"]
            #expect([p["sample_aspect_ratio"], p["chroma_location"], p["color_range"]] == expected, "\(p)")
            // validate names the full range on the encoded edge too, as the file will carry it
            let v = try CLI.mediagraph("validate", g)
            let encoded = v.out.split(separator: "\n").first { $0.contains("enc -> out.in: video/h264") }.map(String.init) ?? ""
            #expect(encoded.contains(" full") == tags.contains("pc"), "\(v.out)")
        }
    }

    /// The Y4M sink writes back what the source read: the header, and so the file, is ffmpeg's.
    @Test(arguments: [["-vf", "setsar=4/3", "-chroma_sample_location", "left", "-color_range", "tv"],
                      ["-chroma_sample_location", "topleft", "-color_range", "pc"], ["-pix_fmt", "yuv422p"]])
    func y4mHeaderRoundTrip(_ tags: [String]) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "3"] + tags + [dir + "/in.y4m"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "y4msink", "params": { "path": "out.y4m" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let a = FileManager.default.contents(atPath: dir + "/in.y4m"), b = FileManager.default.contents(atPath: dir + "/out.y4m")
        #expect(a != nil && a == b, "\(String(decoding: (a ?? Data()).prefix(80), as: UTF8.self)) vs \(String(decoding: (b ?? Data()).prefix(80), as: UTF8.self))")
    }

    /// The issue's metadata case, from a raw source that says nothing: tagged BT.709 limited,
    /// SAR 4:3 and rotation 90 by `setparams`, then invert → encoder → mp4. ffprobe reads all
    /// three back (from the VUI and the MP4 boxes); Chromium plays the H.264 and VP9 files.
    @Test(arguments: ["h264", "hevc", "vp9"])
    func colourAspectAndRotationReachTheFile(_ codec: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "20",
                               "-pix_fmt", "yuv420p", "-f", "rawvideo", dir + "/in.yuv"])
        let settings = codec == "vp9" ? #"{ "deadline": "realtime", "cpu-used": 8 }"# : #"{ "preset": "ultrafast" }"#
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "rawsrc", "params": { "path": "in.yuv", "width": 320, "height": 240, "rate": "25/1" } },
                     "tag": { "type": "setparams", "params": { "range": "limited", "matrix": "bt709", "primaries": "bt709",
                                                               "transfer": "bt709", "sar": "4/3", "rotation": "90" } },
                     "inv": { "type": "invert" },
                     "enc": { "type": "\(codec)", "params": \(settings) },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["src", "tag", "inv", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir + "/out.mp4"
        let p = try CLI.probe(out, "color_range,color_space,color_primaries,color_transfer,sample_aspect_ratio,display_aspect_ratio,nb_read_frames",
                              countFrames: true)
        #expect(p["color_range"] == "tv" && p["color_space"] == "bt709" && p["color_primaries"] == "bt709" && p["color_transfer"] == "bt709", "\(p)")
        #expect(p["sample_aspect_ratio"] == "4:3" && p["display_aspect_ratio"] == "16:9", "\(p)")
        #expect(p["nb_read_frames"] == "20")
        #expect(try Self.rotation(out) == 90)
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        if codec != "hevc" {   // Chromium here plays H.264 and VP9, not HEVC
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "20"])
            #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        }
    }

    /// 10-bit: testsrc → convert(yuv420p10le) → x265 / libvpx → mp4 decodes as yuv420p10le in
    /// Main 10 / profile 2; `validate` shows no converter before the encoder (10-bit flows in).
    @Test(arguments: ["hevc", "vp9"])
    func tenBitEncodes(_ codec: String) throws {
        let dir = CLI.tempDir()
        let settings = codec == "vp9" ? #"{ "deadline": "realtime", "cpu-used": 8 }"# : #"{ "preset": "ultrafast" }"#
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 15 } },
                     "ten": { "type": "convert", "params": { "format": "yuv420p10le" } },
                     "enc": { "type": "\(codec)", "params": \(settings) },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["src", "ten", "enc", "mux.video"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0 && !v.out.contains("auto_convert") && !v.stderr.contains("auto_convert"), "\(v.out) \(v.stderr)")
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir + "/out.mp4"
        let p = try CLI.probe(out, "pix_fmt,profile,nb_read_frames", countFrames: true)
        #expect(p["pix_fmt"] == "yuv420p10le", "\(p)")
        #expect(p["profile"] == (codec == "hevc" ? "Main 10" : "Profile 2"), "\(p)")
        #expect(p["nb_read_frames"] == "15")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        if codec == "vp9" {
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "15"])
            #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        }
    }

    /// A bad language tag is a validation error naming the node and param.
    @Test func setparamsRejectsABadLanguage() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 1 } },
                     "tag": { "type": "setparams", "params": { "language": "English" } },
                     "out": { "type": "nullsink" } },
          "chains": [["src", "tag", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("tag") && r.stderr.contains("param 'language': expected a three-letter ISO 639-2 code in lower case such as \"eng\", found \"English\""), "\(r.stderr)")
    }
}
