import Foundation
import Testing

/// Nodes that combine videos (stack, overlay; concat has its own tests) show a rotated input
/// upright, as ffmpeg autorotates every input before its filters: the graph inserts a `rotate`
/// (named in the notes), and the frames equal ffmpeg's (y4m, no encode; identical here).
@Suite struct UprightInputTests {
    /// A clip stored 160x120 and shown 120x160 (rotation 90), made by ffmpeg.
    static func rotatedClip(in dir: String) throws {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.4",
                               "-c:v", "libx264", "-pix_fmt", "yuv420p", dir + "/plain.mp4"])
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", dir + "/rot.mp4"])
    }

    /// ffmpeg's PSNR of two y4m files: the lowest frame's average (inf when identical).
    static func minimumPSNR(_ a: String, _ b: String) throws -> Double {
        let r = try CLI.run("ffmpeg", ["-i", a, "-i", b, "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-"])
        return r.stderr.range(of: "min:").flatMap { Double(r.stderr[$0.upperBound...].prefix { "0123456789.inf".contains($0) }) } ?? 0
    }

    static func check(_ dir: String, ours: String, theirs: String) throws {
        let o = try CLI.probe(dir + "/" + ours, "width,height"), t = try CLI.probe(dir + "/" + theirs, "width,height")
        #expect(o == t && !t.isEmpty, "ours \(o), ffmpeg's \(t)")
        let psnr = try minimumPSNR(dir + "/" + ours, dir + "/" + theirs)
        #expect(psnr > 45, "PSNR against ffmpeg's autorotated frames: \(psnr) dB at the least")
    }

    @Test func stackShowsARotatedInputUpright() throws {
        let dir = CLI.tempDir()
        try Self.rotatedClip(in: dir)
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=120x160:rate=25", "-t", "0.4",
                               "-c:v", "libx264", "-pix_fmt", "yuv420p", dir + "/upright.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "upright.mp4" } }, "b": { "type": "filesrc", "params": { "path": "rot.mp4" } },
                     "st": { "type": "stack" }, "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
          "chains": [["a.video", "st.in"], ["b.video", "st.in1"], ["st", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("inserted 'auto_rotate_st_in1' (rotate): yuv420p 160x120 rotated 90° → yuv420p 120x160 upright before 'st.in1'"), "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/upright.mp4", "-i", dir + "/rot.mp4", "-filter_complex", "[0:v][1:v]hstack",
                               "-f", "yuv4mpegpipe", dir + "/theirs.y4m"])
        try Self.check(dir, ours: "ours.y4m", theirs: "theirs.y4m")
    }

    @Test func overlayIsPlacedOnTheUprightPicture() throws {
        let dir = CLI.tempDir()
        try Self.rotatedClip(in: dir)
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red@0.5:size=32x24,format=rgba", "-frames:v", "1", dir + "/logo.png"])
        let g = CLI.writeGraph("""
        { "nodes": { "m": { "type": "filesrc", "params": { "path": "rot.mp4" } }, "logo": { "type": "imagesrc", "params": { "path": "logo.png" } },
                     "ov": { "type": "overlay", "params": { "x": 10, "y": 20 } }, "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
          "chains": [["m.video", "ov.main"], ["logo", "ov.overlay"], ["ov", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("inserted 'auto_rotate_ov_main' (rotate)"), "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/rot.mp4", "-i", dir + "/logo.png", "-filter_complex", "[0:v][1:v]overlay=10:20",
                               "-f", "yuv4mpegpipe", dir + "/theirs.y4m"])
        try Self.check(dir, ours: "ours.y4m", theirs: "theirs.y4m")
    }

    /// A two-input shader samples both textures in one picture: a rotated second input is
    /// turned upright first, as ffmpeg autorotates it. The shader shows `in1` at `in`'s size, so
    /// the output is ffmpeg's autorotated frame (through rgba and back: about 40 dB; the
    /// sideways picture stretched to fit gives far less). A one-input shader keeps the rotation
    /// as metadata: no `rotate` is inserted.
    @Test func aTwoInputShaderSeesBothInputsUpright() throws {
        let dir = CLI.tempDir()
        try Self.rotatedClip(in: dir)
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=120x160:rate=25", "-t", "0.4",
                               "-c:v", "libx264", "-pix_fmt", "yuv420p", dir + "/upright.mp4"])
        let declarations = "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; uniform sampler2D inputImageTexture2;"
        let g = CLI.writeGraph("""
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "upright.mp4" } }, "b": { "type": "filesrc", "params": { "path": "rot.mp4" } },
                     "sh": { "type": "shader", "params": { "source": "\(declarations) void main() { gl_FragColor = texture2D(inputImageTexture2, textureCoordinate); }" } },
                     "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
          "chains": [["a.video", "sh.in"], ["b.video", "sh.in1"], ["sh", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("inserted 'auto_rotate_sh_in1' (rotate): rgba 160x120 rotated 90° → rgba 120x160 upright before 'sh.in1'"), "\(r.stderr)")
        #expect(!r.stderr.contains("auto_rotate_sh_in'"), "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/rot.mp4", "-f", "yuv4mpegpipe", dir + "/theirs.y4m"])
        let o = try CLI.probe(dir + "/ours.y4m", "width,height"), t = try CLI.probe(dir + "/theirs.y4m", "width,height")
        #expect(o == t && t["width"] == "120", "ours \(o), ffmpeg's \(t)")
        let psnr = try Self.minimumPSNR(dir + "/ours.y4m", dir + "/theirs.y4m")
        #expect(psnr > 35, "PSNR against ffmpeg's autorotated frames: \(psnr) dB at the least")

        let one = CLI.writeGraph("""
        { "nodes": { "b": { "type": "filesrc", "params": { "path": "rot.mp4" } },
                     "sh": { "type": "shader", "params": { "source": "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate).bgra; }" } },
                     "out": { "type": "y4msink", "params": { "path": "one.y4m" } } },
          "chains": [["b.video", "sh"], ["sh", "out"]] }
        """, in: dir, name: "one.json")
        let v = try CLI.mediagraph("validate", one)
        #expect(v.status == 0, "\(v.stderr)")
        #expect(!(v.out + v.stderr).contains("auto_rotate_sh"), "a one-input shader turned its input: \(v.out)\(v.stderr)")
        // y4m has no place for a rotation: the sink turns the frames upright, as ffmpeg does
        #expect((v.out + v.stderr).contains("inserted 'auto_rotate_out_in' (rotate)"), "\(v.out)\(v.stderr)")
        #expect(try CLI.mediagraph("run", one).status == 0)
        #expect(try CLI.probe(dir + "/one.y4m", "width,height") == ["width": "120", "height": "160"])
    }

    /// Pictures carry no display rotation: imageseqsink, gif and webp turn a rotated stream
    /// upright, as ffmpeg's autorotate does when it writes pictures or a GIF.
    @Test func pictureSinksWriteUprightFrames() throws {
        let dir = CLI.tempDir()
        try Self.rotatedClip(in: dir)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "rot.mp4" } },
                     "seq": { "type": "imageseqsink", "params": { "path": "ours-%03d.png" } },
                     "gif": { "type": "gif", "params": { "path": "ours.gif" } }, "webp": { "type": "webp", "params": { "path": "ours.webp" } } },
          "chains": [["in.video", "seq"], ["in.video", "gif"], ["in.video", "webp"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        for sink in ["seq", "gif", "webp"] { #expect(r.stderr.contains("inserted 'auto_rotate_\(sink)_in' (rotate)"), "\(r.stderr)") }
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/rot.mp4", dir + "/theirs-%03d.png"])
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/rot.mp4", dir + "/theirs.gif"])
        let ours = try CLI.probe(dir + "/ours-001.png", "width,height"), theirs = try CLI.probe(dir + "/theirs-001.png", "width,height")
        #expect(ours == theirs && theirs["width"] == "120", "ours \(ours), ffmpeg's \(theirs)")
        let psnr = try Self.minimumPSNR(dir + "/ours-001.png", dir + "/theirs-001.png")
        #expect(psnr > 45, "PNG against ffmpeg's autorotated frame: \(psnr) dB")
        #expect(try CLI.probe(dir + "/ours.gif", "width,height") == CLI.probe(dir + "/theirs.gif", "width,height"))
        let webp = [UInt8](FileManager.default.contents(atPath: dir + "/ours.webp") ?? Data())
        // VP8X canvas: 24-bit width − 1 and height − 1 at bytes 24 and 27
        let size = webp.count >= 30 ? (1 + Int(webp[24]) + Int(webp[25]) << 8 + Int(webp[26]) << 16, 1 + Int(webp[27]) + Int(webp[28]) << 8 + Int(webp[29]) << 16) : (0, 0)
        #expect(size == (120, 160), "webp canvas \(size)")
    }
}
