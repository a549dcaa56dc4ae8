import Foundation
import Testing

/// The `overlay` node end to end: a logo PNG made by ffmpeg (with alpha) over a testsrc2 video,
/// bottom-right with a 10-pixel margin, against ffmpeg's `overlay=W-w-10:H-h-10`.
@Suite struct OverlayGraphTests {
    static func make(in dir: String) throws {
        let r1 = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25", "-frames:v", "6",
                                         "-pix_fmt", "yuv420p", dir + "/main.y4m"])
        #expect(r1.status == 0, "\(r1.stderr)")
        // seed: gradients picks random colours and points otherwise, so every run would test another logo
        let logo = "gradients=s=96x48:seed=1:c0=0x2060ffff:c1=0xff8020ff:x0=0:y0=0:x1=96:y1=48,format=rgba,"
            + "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='255*clip((1-hypot((X-W/2)/(W/2),(Y-H/2)/(H/2)))*3,0,1)'"
        let r2 = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", logo, "-frames:v", "1", dir + "/logo.png"])
        #expect(r2.status == 0, "\(r2.stderr)")
    }

    static func graph(_ overlayParams: String, logo: String = #", "duration": 1"#, in dir: String) -> String {
        CLI.writeGraph("""
        { "nodes": { "main": { "type": "y4msrc", "params": { "path": "main.y4m" } },
                     "logo": { "type": "imagesrc", "params": { "path": "logo.png"\(logo) } },
                     "ov":   { "type": "overlay", "params": { \(overlayParams) } },
                     "out":  { "type": "rawsink", "params": { "path": "ours.yuv" } } },
          "chains": [["main", "ov.main"], ["logo", "ov.overlay"], ["ov", "out"]] }
        """, in: dir)
    }

    /// Largest difference per plane (Y, U, V) over every frame.
    static func worst(_ a: Data, _ b: Data, width w: Int, height h: Int) -> [Int] {
        let frame = w * h * 3 / 2
        var out = [0, 0, 0]
        let planes = [(0, w * h), (w * h, w * h / 4), (w * h * 5 / 4, w * h / 4)]
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for f in 0..<(min(a.count, b.count) / frame) {
                    for (k, (off, size)) in planes.enumerated() {
                        for i in 0..<size {
                            let j = f * frame + off + i
                            out[k] = max(out[k], abs(Int(pa[j]) - Int(pb[j])))
                        }
                    }
                }
            }
        }
        return out
    }

    /// ffmpeg converts the logo to yuva420p with libswscale, we with the written BT.601 formula
    /// and a 2×2 box average for chroma (Docs/filters.md); the blend is the same. With either
    /// chroma filter of ffmpeg's, luma is within 1 and chroma within 2 (libswscale's fixed-point
    /// conversion rounds differently from the formula).
    @Test func logoBottomRightIsFFmpegsOverlayWithinTheDocumentedBound() throws {
        let dir = CLI.tempDir()
        try Self.make(in: dir)
        let g = Self.graph(#""anchor": "bottom-right", "margin": 10"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.yuv") ?? Data()
        let frameBytes = 320 * 240 * 3 / 2
        #expect(ours.count == 6 * frameBytes)
        for flags in ["sws_flags=area+accurate_rnd;", ""] {
            let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/main.y4m", "-i", dir + "/logo.png",
                                           "-filter_complex", "\(flags)[0][1]overlay=W-w-10:H-h-10", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
            #expect(f.status == 0, "\(f.stderr)")
            #expect(f.stdout.count == ours.count)
            let w = Self.worst(ours, f.stdout, width: 320, height: 240)
            #expect(w[0] <= 1 && w[1] <= 2 && w[2] <= 2, "\(flags.isEmpty ? "default flags" : flags): worst Y, U, V \(w)")
        }
    }

    /// x/y place the overlay's corner exactly (ffmpeg's overlay at the same even position).
    @Test func pixelPositionIsFFmpegsPosition() throws {
        let dir = CLI.tempDir()
        try Self.make(in: dir)
        let r = try CLI.mediagraph("run", "--quiet", Self.graph(#""x": -20, "y": 200"#, in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/ours.yuv") ?? Data()
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/main.y4m", "-i", dir + "/logo.png",
                                       "-filter_complex", "sws_flags=area+accurate_rnd;[0][1]overlay=-20:200", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
        let w = Self.worst(ours, f.stdout, width: 320, height: 240)
        #expect(ours.count == f.stdout.count && w[0] <= 1 && w[1] <= 2 && w[2] <= 2, "worst Y, U, V \(w)")
    }

    /// An imagesrc without a duration never ends by itself: the overlay's output ends with main
    /// (end: first), the engine finishes the node, and the source stops because nothing wants
    /// its frames any more.
    @Test func anEndlessImageStopsWhenTheOverlayEnds() throws {
        let dir = CLI.tempDir()
        try Self.make(in: dir)
        // under `timeout`: a hang fails the test (124) instead of stalling the suite
        let r = try CLI.run("timeout", ["60", CLI.binary, "run", "--quiet", Self.graph(#""anchor": "center""#, logo: "", in: dir)])
        #expect(r.status == 0, "\(r.stderr)")
        let frameBytes = 320 * 240 * 3 / 2
        #expect(FileManager.default.contents(atPath: dir + "/ours.yuv")?.count == 6 * frameBytes)
    }

    /// A main video slower than the endless image beside it (read in real time from a pipe): the
    /// overlay waits for main instead of taking image frames until its limit of frames held
    /// ahead ("ran 256 frames ahead" before the engine followed its threads' waits).
    @Test func aSlowMainIsWaitedForNotOverrunByAnEndlessImage() throws {
        let dir = CLI.tempDir()
        try Self.make(in: dir)
        try? FileManager.default.removeItem(atPath: dir + "/main.y4m")
        #expect(mkfifo(dir + "/main.y4m", 0o600) == 0)
        let graph = Self.graph(#""anchor": "center""#, logo: "", in: dir)
        // 15 frames over 3 s: the image source could send hundreds meanwhile
        let r = try CLI.run("sh", ["-c", """
            ffmpeg -v error -re -f lavfi -i testsrc2=s=320x240:r=5:d=3 -f yuv4mpegpipe -y '\(dir)/main.y4m' &
            timeout 60 '\(CLI.binary)' run --quiet '\(graph)'; s=$?; wait; exit $s
            """])
        #expect(r.status == 0, "\(r.stderr)")
        let frameBytes = 320 * 240 * 3 / 2
        let written = FileManager.default.contents(atPath: dir + "/ours.yuv")?.count ?? 0
        #expect(written == 15 * frameBytes)
    }

    @Test func positionParamsThatContradictEachOtherAreRefused() throws {
        let dir = CLI.tempDir()
        try Self.make(in: dir)
        let a = try CLI.mediagraph("validate", Self.graph(#""x": 5"#, in: dir))
        #expect(a.status == 2 && a.stderr.contains("node 'ov' (overlay): params 'x' and 'y': give both (a position) or neither (an anchor)"), "\(a.stderr)")
        let b = try CLI.mediagraph("validate", Self.graph(#""x": 5, "y": 5, "anchor": "center""#, in: dir))
        #expect(b.status == 2 && b.stderr.contains("params 'x'/'y' and 'anchor': give a position or an anchor, not both"), "\(b.stderr)")
    }
}
