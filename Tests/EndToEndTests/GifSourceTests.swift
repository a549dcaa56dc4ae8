import Foundation
import Testing

/// GIF input through `filesrc` (libavformat + libavcodec's GIF decoder): the frames it hands on
/// are the composed canvas a browser shows (disposal, transparency, partial frames), equal to
/// ffmpeg's decode, with the GIF's variable delays as timestamps; damaged GIFs fail clearly.
@Suite struct GifSourceTests {
    static func graph(_ input: String, _ sink: String, in dir: String) -> String {
        CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } },
                     "out": \(sink) },
          "chains": [["in.video", "out"]] }
        """, in: dir)
    }

    /// GIFs from ffmpeg (transdiff + offsetting: transparent unchanged pixels, cropped frames)
    /// and from our sink (the same, with its own palettes) decode to ffmpeg's frames, byte for byte.
    @Test(arguments: ["ffmpeg", "gif"])
    func composedFramesEqualFFmpegsDecode(_ maker: String) throws {
        let dir = CLI.tempDir()
        // a still background with a moving box: most of each frame unchanged
        let clip = ["-f", "lavfi", "-i", "smptebars=size=160x120:rate=25", "-f", "lavfi", "-i", "color=white:size=24x20:rate=25",
                    "-filter_complex", "[0][1]overlay=x=10+100*t:y=30", "-frames:v", "12"]
        if maker == "ffmpeg" {
            try CLI.run("ffmpeg", ["-v", "error"] + clip + ["-gifflags", "+transdiff+offsetting", dir + "/in.gif"])
        } else {
            try CLI.run("ffmpeg", ["-v", "error"] + clip + ["-pix_fmt", "yuv444p", dir + "/in.y4m"])
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                         "out": { "type": "gif", "params": { "path": "in.gif" } } },
              "chains": [["src", "out"]] }
            """, in: dir, name: "make.json")
            #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        }
        let g = Self.graph("in.gif", #"{ "type": "rawsink", "params": { "path": "out.bgra" } }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.gif", "-pix_fmt", "bgra", "-f", "rawvideo", dir + "/ff.bgra"])
        let ours = FileManager.default.contents(atPath: dir + "/out.bgra") ?? Data()
        let theirs = FileManager.default.contents(atPath: dir + "/ff.bgra") ?? Data()
        #expect(ours.count == 160 * 120 * 4 * 12)
        // a Bool: on a failure Swift Testing would diff two 900 kB buffers for its message, for hours
        let same = ours == theirs
        #expect(same)
    }

    /// Variable delays come through as variable timestamps: a GIF written again by our sink has
    /// ffprobe's packet times and durations of the original.
    @Test func variableDelaysBecomeTimestamps() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x72:rate=25:duration=0.4",
                               "-vf", "setpts='if(lt(N,4),N*0.1,0.4+(N-4)*0.06)/TB'", "-fps_mode", "vfr", dir + "/in.gif"])
        let g = Self.graph("in.gif", #"{ "type": "gif", "params": { "path": "out.gif" } }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let original = try GifSinkTests.packets(dir + "/in.gif"), ours = try GifSinkTests.packets(dir + "/out.gif")
        #expect(original.count == 10)
        #expect(Set(original.map(\.duration)).count > 1, "the input should have variable delays: \(original)")
        #expect(ours.map(\.pts) == original.map(\.pts))
        #expect(ours.map(\.duration) == original.map(\.duration))
    }

    /// A GIF cut inside its first frame's header: an error naming node and file. (One cut after
    /// some frames gives the complete frames, as browsers show them: Docs/pictures.md.)
    @Test func truncatedGifIsAClearError() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=96x72:rate=25", "-frames:v", "5", dir + "/full.gif"])
        let data = FileManager.default.contents(atPath: dir + "/full.gif") ?? Data()
        #expect(FileManager.default.createFile(atPath: dir + "/cut.gif", contents: data.prefix(300)))
        let g = Self.graph("cut.gif", #"{ "type": "gif", "params": { "path": "out.gif" } }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("node 'in' (filesrc)") && r.stderr.contains("cut.gif") && r.stderr.contains("truncated"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.gif"))
    }

    /// A logical screen of 65535x65535 around one 2x2 frame (hand-made): refused before any
    /// canvas is allocated, with the node and the file named.
    @Test func gifThatLiesAboutItsSizeIsRefused() throws {
        let dir = CLI.tempDir()
        var b = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        b += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0x80, 0, 0, 0, 255, 255, 255, 2, 2, 0x4C, 0x01, 0, 0x3B]
        #expect(FileManager.default.createFile(atPath: dir + "/liar.gif", contents: Data(b)))
        let g = Self.graph("liar.gif", #"{ "type": "gif", "params": { "path": "out.gif" } }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("node 'in' (filesrc)") && r.stderr.contains("liar.gif"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.gif"))
    }
}
