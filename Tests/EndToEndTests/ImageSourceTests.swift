import Foundation
import Testing

/// `imagesrc` against ffmpeg's own decode of the same image (made by ffmpeg in the test).
@Suite struct ImageSourceTests {
    /// A 61x37 picture from testsrc2 with an alpha ramp (0 and 255 included), encoded by ffmpeg.
    static func makeImage(_ path: String, codec: [String], pixfmt: String) throws {
        let src = "testsrc2=s=61x37,format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,5),0,if(gt(X,50),255,X*5+Y))'"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", src, "-frames:v", "1"] + codec + ["-pix_fmt", pixfmt, path])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// ffmpeg's decode of `path` as one raw picture in `pixfmt`.
    static func ffmpegPicture(_ path: String, pixfmt: String) throws -> Data {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixfmt, "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout
    }

    static func graph(_ image: String, params: String = "", in dir: String) -> String {
        CLI.writeGraph("""
        { "nodes": { "img": { "type": "imagesrc", "params": { "path": "\(image)"\(params) } },
                     "out": { "type": "rawsink", "params": { "path": "out.raw" } } },
          "chains": [["img", "out"]] }
        """, in: dir)
    }

    @Test(arguments: [("logo.png", ["-c:v", "png"], "rgba"), ("logo.webp", ["-c:v", "libwebp", "-lossless", "1"], "yuva420p"),
                      ("logo.webp", ["-c:v", "libwebp", "-lossless", "1"], "rgba")])
    func alphaIsKeptAndEveryFrameIsThePicture(name: String, codec: [String], pixfmt: String) throws {
        let dir = CLI.tempDir()
        try Self.makeImage(dir + "/" + name, codec: codec, pixfmt: pixfmt)
        // 0.2 s at 25 fps: 5 frames
        let g = Self.graph(name, params: #", "duration": 0.2"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let picture = try Self.ffmpegPicture(dir + "/" + name, pixfmt: "rgba")
        #expect(picture.count == 61 * 37 * 4)
        let out = FileManager.default.contents(atPath: dir + "/out.raw") ?? Data()
        #expect(out == Data(Array(repeating: picture, count: 5).joined()))
        // the alpha survived: the first columns are transparent, the last ones opaque
        #expect(picture[3] == 0 && picture[4 * 60 + 3] == 255)
    }

    @Test func jpegAsYUVIsTheDecodedPlanes() throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48", "-frames:v", "1", "-pix_fmt", "yuvj420p", dir + "/p.jpg"])
        #expect(r0.status == 0, "\(r0.stderr)")
        let g = Self.graph("p.jpg", params: #", "format": "yuv420p", "duration": "frame:3", "rate": "30/1""#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let picture = try Self.ffmpegPicture(dir + "/p.jpg", pixfmt: "yuvj420p")
        #expect(FileManager.default.contents(atPath: dir + "/out.raw") == Data(Array(repeating: picture, count: 3).joined()))
        // validate shows the rate and the full range the JPEG declares
        let v = try CLI.mediagraph("validate", g)
        #expect(v.out.contains("yuv420p 64x48 @30/1 full"), "\(v.out)")
    }

    @Test func aFileThatIsNotAnImageFailsValidationNamingNodeAndFile() throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/junk.png", contents: Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })))
        let g = Self.graph("junk.png", in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("node 'img'") && r.stderr.contains("junk.png"), "\(r.stderr)")
    }

    /// libavformat learns an image's size by decoding it, so a cut file fails already when the
    /// graph is checked (exit 2), before anything runs.
    @Test func aTruncatedImageFailsNamingNodeAndFile() throws {
        let dir = CLI.tempDir()
        try Self.makeImage(dir + "/full.png", codec: ["-c:v", "png"], pixfmt: "rgba")
        let bytes = FileManager.default.contents(atPath: dir + "/full.png") ?? Data()
        // the header and the start of the pixel data, no more
        #expect(FileManager.default.createFile(atPath: dir + "/cut.png", contents: bytes.prefix(bytes.count / 3)))
        let g = Self.graph("cut.png", params: #", "duration": 1"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("node 'img' (imagesrc): '\(dir)/cut.png': the png image's size cannot be read: the file is truncated or damaged"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.raw"))
    }

    /// A PNG or JPEG whose header declares a size libavcodec refuses: libavformat gives no size,
    /// and the message says the declared size (ffmpeg's decoder, the reference, refuses the same
    /// size) instead of calling the file truncated.
    @Test(arguments: ["png", "jpg"])
    func aPictureDeclaringAHugeSizeSaysSo(_ ext: String) throws {
        let dir = CLI.tempDir()
        try Self.makeImage(dir + "/ok.\(ext)", codec: ext == "png" ? ["-c:v", "png"] : ["-c:v", "mjpeg"], pixfmt: ext == "png" ? "rgba" : "yuvj420p")
        var bytes = [UInt8](FileManager.default.contents(atPath: dir + "/ok.\(ext)") ?? Data())
        let huge = 40_000
        if ext == "png" {
            for k in 0..<2 { bytes.replaceSubrange(16 + 4 * k ..< 20 + 4 * k, with: withUnsafeBytes(of: UInt32(huge).bigEndian, Array.init)) }
        } else {
            let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
            for k in 0..<2 { bytes.replaceSubrange(sof + 5 + 2 * k ..< sof + 7 + 2 * k, with: withUnsafeBytes(of: UInt16(huge).bigEndian, Array.init)) }
        }
        #expect(FileManager.default.createFile(atPath: dir + "/huge.\(ext)", contents: Data(bytes)))
        let ffmpeg = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/huge.\(ext)", "-f", "null", "-"])
        #expect(ffmpeg.stderr.contains("\(huge)x\(huge)"), "ffmpeg: \(ffmpeg.stderr)")
        let r = try CLI.mediagraph("validate", Self.graph("huge.\(ext)", params: #", "duration": 1"#, in: dir))
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 'img' (imagesrc): '\(dir)/huge.\(ext)' declares a picture of \(huge)x\(huge): width \(huge) is above the limit of 16384"), "\(r.stderr)")
    }

    /// An animated WebP (made by ffmpeg's libwebp encoder) is a file libavcodec 5.1 cannot decode
    /// and libavformat gives no size: it was reported as truncated or damaged. Both picture
    /// sources now say what it is; the still WebP beside it reads.
    @Test func anAnimatedWebPIsNamedAsSuch() throws {
        let dir = CLI.tempDir()
        let made = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=32x24:rate=5", "-frames:v", "3",
                                          "-c:v", "libwebp", "-loop", "0", dir + "/anim.webp"])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try CLI.mediagraph("validate", Self.graph("anim.webp", params: #", "duration": 1"#, in: dir))
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 'img' (imagesrc): '\(dir)/anim.webp' is an animated WebP, which libavcodec cannot decode"), "\(r.stderr)")
        let seq = CLI.writeGraph("""
        { "nodes": { "seq": { "type": "imageseq", "params": { "path": "anim*.webp" } }, "out": { "type": "nullsink" } },
          "chains": [["seq", "out"]] }
        """, in: dir, name: "seq.json")
        let s = try CLI.mediagraph("validate", seq)
        #expect(s.status == 2)
        #expect(s.stderr.contains("node 'seq' (imageseq): cannot read the first picture: '") && s.stderr.contains("is an animated WebP"), "\(s.stderr)")
        try Self.makeImage(dir + "/still.webp", codec: ["-c:v", "libwebp", "-lossless", "1"], pixfmt: "yuva420p")
        #expect(try CLI.mediagraph("validate", Self.graph("still.webp", params: #", "duration": 1"#, in: dir)).status == 0)
    }
}
