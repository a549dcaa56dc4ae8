import Foundation
import Testing

/// The `gif` sink, checked with ffmpeg and ffprobe as independent GIF readers: frame count,
/// per-frame delays against the input's timestamps, the loop extension (GIF89a spec bytes),
/// pictures against the source (PSNR bounds measured on 192x144 testsrc2), and transparency and
/// cropping decoding to exactly the same frames as without them.
@Suite struct GifSinkTests {
    /// Makes `frames` frames of testsrc2 at `rate` as y4m, and a graph y4msrc → gif.
    /// (`testsrc` changes every frame even at 64x48, so no frame is folded into the one before.)
    static func setup(frames: Int = 20, rate: String = "25", size: String = "192x144", source: String = "testsrc2",
                      gif: String = "") -> (dir: String, graph: String) {
        let dir = CLI.tempDir()
        _ = try? CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "\(source)=size=\(size):rate=\(rate)", "-frames:v", "\(frames)",
                                    "-pix_fmt", "yuv444p", dir + "/in.y4m"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "gif", "params": { "path": "out.gif"\(gif) } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        return (dir, g)
    }

    /// ffprobe's packets of the GIF: pts and duration in its 1/100 s time base.
    static func packets(_ file: String) throws -> [(pts: Int, duration: Int)] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "packet=pts,duration", "-of", "csv=p=0", file])
        return r.out.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ",").compactMap { Int($0) }
            return f.count == 2 ? (f[0], f[1]) : nil
        }
    }

    /// ffmpeg's PSNR (average and minimum over frames) of `a` against `b`, both as rgb24.
    static func psnr(_ a: String, _ b: String) throws -> (average: Double, min: Double) {
        let r = try CLI.run("ffmpeg", ["-i", a, "-i", b, "-lavfi", "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
        func value(_ key: String) -> Double {
            guard let range = r.stderr.range(of: key + ":") else { return 0 }
            return Double(r.stderr[range.upperBound...].prefix { "0123456789.".contains($0) }) ?? 0
        }
        return (value("average"), value("min"))
    }

    /// ffmpeg's frame MD5s of the decoded GIF (full canvas, rgb24).
    static func decodedFrames(_ file: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-pix_fmt", "rgb24", "-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    /// The loop count of the NETSCAPE2.0 application extension (GIF89a), or nil without one.
    static func loopCount(_ file: String) -> Int? {
        let bytes = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        let tag = Array("NETSCAPE2.0".utf8)
        guard bytes.count > 13 + 19 else { return nil }
        for i in 13..<(bytes.count - 18) where Array(bytes[i..<i + 11]) == tag && bytes[i + 11] == 3 && bytes[i + 12] == 1 {
            return Int(bytes[i + 13]) | Int(bytes[i + 14]) << 8
        }
        return nil
    }

    @Test func everyFrameWithItsDelayAndTheLoop() throws {
        let (dir, g) = Self.setup()
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let p = try CLI.probe(dir + "/out.gif", "width,height,nb_read_frames", countFrames: true)
        #expect(p["width"] == "192" && p["height"] == "144")
        #expect(p["nb_read_frames"] == "20")
        let packets = try Self.packets(dir + "/out.gif")
        #expect(packets.count == 20)
        #expect(packets.allSatisfy { $0.duration == 4 }, "25 fps is 4 cs per frame: \(packets)")
        #expect(Self.loopCount(dir + "/out.gif") == 0)
        #expect(try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.gif", "-f", "null", "-"]).stderr.isEmpty)
    }

    @Test func loopCountAndPlayOnce() throws {
        let (dir, g) = Self.setup(frames: 4, size: "64x48", source: "testsrc")
        #expect(try CLI.mediagraph("run", "--quiet", "--set", "out.loop=3", g).status == 0)
        #expect(Self.loopCount(dir + "/out.gif") == 3)
        #expect(try CLI.mediagraph("run", "--quiet", "--set", "out.loop=-1", "--set", "out.path=\(dir)/once.gif", g).status == 0)
        #expect(Self.loopCount(dir + "/once.gif") == nil)
        #expect(try CLI.probe(dir + "/once.gif", "nb_read_frames", countFrames: true)["nb_read_frames"] == "4")
    }

    /// At 29.97 fps a frame lasts 3.34 cs: delays of 3 and 4 whose sum follows the timestamps
    /// (each frame ends within half a centisecond of its exact end; the total within 5 ms).
    @Test func roundingErrorIsCarriedToTheNextFrame() throws {
        let (dir, g) = Self.setup(frames: 30, rate: "30000/1001", size: "64x48", source: "testsrc")
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let packets = try Self.packets(dir + "/out.gif")
        #expect(packets.count == 30)
        var end = 0
        for (i, p) in packets.enumerated() {
            end += p.duration
            let exact = Double(i + 1) * 100 * 1001 / 30000
            #expect(abs(Double(end) - exact) <= 0.5, "frame \(i) ends at \(end) cs, exactly \(exact)")
            #expect(p.duration == 3 || p.duration == 4)
        }
        #expect(end == 100)  // 30 frames of 1001/30000 s = 1.001 s
    }

    /// `rate` keeps the first frame of each 1/rate slot; delays still follow the timestamps.
    @Test func rateReductionKeepsTheDuration() throws {
        let (dir, g) = Self.setup(frames: 25, rate: "25", size: "64x48", source: "testsrc", gif: #", "rate": "10/1""#)
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let packets = try Self.packets(dir + "/out.gif")
        #expect(packets.count == 10, "\(packets)")
        #expect(packets.map(\.duration).reduce(0, +) == 100)
        #expect(packets.map(\.pts) == [0, 12, 20, 32, 40, 52, 60, 72, 80, 92])
    }

    /// A 60 fps clip: delays under 2 cs are shown as 10 cs by browsers, so frames are dropped
    /// until each lasts at least 2 cs; the total stays right.
    @Test func framesShorterThanTwoCentisecondsAreDropped() throws {
        let (dir, g) = Self.setup(frames: 30, rate: "60", size: "64x48", source: "testsrc")
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let packets = try Self.packets(dir + "/out.gif")
        #expect(packets.allSatisfy { $0.duration >= 2 }, "\(packets)")
        #expect(packets.map(\.duration).reduce(0, +) == 50)
    }

    @Test(arguments: [("", 34.0), (#", "dither": "ordered""#, 30.0), (#", "palette": "frame""#, 37.0),
                      (#", "dither": "none""#, 35.0), (#", "palette": "frame", "dither": "ordered", "dither-strength": 0.5"#, 32.0)])
    func decodedFramesAreCloseToTheInput(_ params: String, _ minimumPSNR: Double) throws {
        let (dir, g) = Self.setup(gif: params)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let q = try Self.psnr(dir + "/out.gif", dir + "/in.y4m")
        // measured on this clip (defaults speed 2, strength 0.5): clip palette 37.7 dB average /
        // 36.0 minimum; frame palettes 39.8/38.9; ordered 35.7/34.5; no dither 38.0/36.4; frame +
        // ordered at 0.5 36.7/36.1
        #expect(q.min >= minimumPSNR, "PSNR \(q) with \(params)")
    }

    /// Params are spelt with hyphens, as every other node's; ffmpeg's underscore spelling (its
    /// palettegen/paletteuse options) is pointed at the right name.
    @Test func underscoreSpellingIsPointedAtTheParam() throws {
        let (_, g) = Self.setup(frames: 2, size: "64x48")
        let r = try CLI.mediagraph("validate", g, "--set", "out.palette_frames=4")
        #expect(r.status == 2)
        #expect(r.stderr.contains("node 'out' (gif): unknown param 'palette_frames'; did you mean 'palette-frames'?"), "\(r.stderr)")
        #expect(try CLI.mediagraph("validate", g, "--set", "out.palette-frames=4", "--set", "out.dither-strength=0.25").status == 0)
    }

    /// Transparent unchanged pixels and cropped frames are only a smaller encoding: ffmpeg
    /// decodes exactly the same full frames with and without them.
    @Test(arguments: [(true, false), (false, true), (true, true)])
    func transparencyAndCropDecodeToTheSameFrames(_ transparency: Bool, _ crop: Bool) throws {
        // a clip with a still background (smptebars) and a moving box: most pixels unchanged
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "smptebars=size=160x120:rate=25", "-f", "lavfi", "-i", "color=white:size=24x20:rate=25",
                               "-filter_complex", "[0][1]overlay=x=10+100*t:y=30", "-frames:v", "12", "-pix_fmt", "yuv444p", dir + "/in.y4m"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "plain": { "type": "gif", "params": { "path": "plain.gif", "transparency": false, "crop": false } },
                     "small": { "type": "gif", "params": { "path": "small.gif", "transparency": \(transparency), "crop": \(crop) } } },
          "chains": [["src", "plain"], ["src", "small"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let plain = try Self.decodedFrames(dir + "/plain.gif"), small = try Self.decodedFrames(dir + "/small.gif")
        #expect(plain.count == 12)
        #expect(plain == small)
        let sizes = ["plain", "small"].map { (try? FileManager.default.attributesOfItem(atPath: dir + "/\($0).gif")[.size] as? Int) ?? 0 }
        #expect(sizes[1] < sizes[0] / 2, "sizes \(sizes)")
    }

    @Test func aCanvasAboveTheGifLimitIsAValidationError() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 70000, "height": 16, "frames": 2 } },
                     "out": { "type": "gif", "params": { "path": "out.gif" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains("width") && r.stderr.contains("70000"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.gif"))
    }

    @Test func nothingIsLeftWhenTheRunFails() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "10", "-pix_fmt", "yuv420p", dir + "/in.y4m"])
        // a y4m cut in the middle of a frame: the source fails after some frames were written
        let data = FileManager.default.contents(atPath: dir + "/in.y4m")!
        #expect(FileManager.default.createFile(atPath: dir + "/cut.y4m", contents: data.prefix(data.count - 1000)))
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "cut.y4m" } },
                     "out": { "type": "gif", "params": { "path": "out.gif" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status != 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.gif"))
    }
}
