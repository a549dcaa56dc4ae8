import Foundation
import Testing

/// `eq` against ffmpeg 5.1's `-vf eq=…` on the same decoded frames: every picture's MD5 equal,
/// on its fixed-point path (gamma 1, |contrast| < 7.9), its double-precision curve (a gamma, a
/// large contrast, a negative one with weighted colour gammas), per-frame expressions of n and t,
/// and init-time expressions (where ffmpeg's t and r are 0), on 4:2:0, 4:2:2 and 4:4:4 at an odd
/// size.
@Suite struct EqTests {
    static let cases: [(params: String, filter: String)] = [
        (#""contrast": 1.2, "brightness": 0.05, "saturation": 1.3"#, "eq=contrast=1.2:brightness=0.05:saturation=1.3"),
        (#""gamma": 1.5"#, "eq=gamma=1.5"),
        (#""contrast": -0.7, "gamma-r": 2, "gamma-b": 0.6, "gamma-weight": 0.4"#, "eq=contrast=-0.7:gamma_r=2:gamma_b=0.6:gamma_weight=0.4"),
        (#""contrast": 9, "brightness": -0.3, "gamma-g": 1.3"#, "eq=contrast=9:brightness=-0.3:gamma_g=1.3"),
        (#""saturation": 0"#, "eq=saturation=0"),
        (#""brightness": "0.1*sin(t*8)", "saturation": "1+n/10", "eval": "frame""#, "eq=brightness=0.1*sin(t*8):saturation=1+n/10:eval=frame"),
        (#""brightness": "t+0.2", "contrast": "r+1""#, "eq=brightness=t+0.2:contrast=r+1"),
    ]

    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p"])
    func picturesAreFFmpegs(_ format: String) throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.mkv"
        // lossless, so both decode the same pictures
        let make = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "8",
                                          "-vf", "scale=157:91", "-pix_fmt", format, "-c:v", "ffv1", input])
        #expect(make.status == 0, "\(make.stderr)")
        for (params, filter) in Self.cases {
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mkv" } }, "eq": { "type": "eq", "params": { \(params) } },
                         "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
              "chains": [["in.video", "eq", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(filter): \(r.stderr)")
            let f = try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", input, "-vf", filter, "-f", "yuv4mpegpipe", dir + "/ffmpeg.y4m"])
            #expect(f.status == 0, "\(f.stderr)")
            let ours = try ScaleSizeTests.describe(dir + "/ours.y4m"), theirs = try ScaleSizeTests.describe(dir + "/ffmpeg.y4m")
            #expect(ours.frames == theirs.frames && theirs.frames.count == 8, "\(format) \(filter): pictures differ")
        }
    }

    @Test(arguments: [
        (#""contrast": "1.2*""#, "param 'contrast': "),
        (#""saturation": "s+1""#, "param 'saturation': unknown name 's'"),
        (#""eval": "always""#, #"node 'eq' param 'eval': expected one of "init", "frame", found "always""#),
    ])
    func mistakesAreNamed(_ params: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 1 } }, "eq": { "type": "eq", "params": { \(params) } },
                     "out": { "type": "nullsink" } }, "chains": [["src", "eq", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("node 'eq'") && r.stderr.contains(message), "\(r.stderr)")
    }
}
