import Foundation
import Testing

/// The `fps` node against ffmpeg's `fps` filter: the same frames (MD5 of each picture) at the
/// same times, for rates up, down and fractional, from a constant and a variable frame rate file.
@Suite struct FrameRateTests {
    /// Pictures and times, one "pts md5" per frame, from our framehash file or ffmpeg's framemd5.
    static func frames(_ path: String, ffmpeg: Bool) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return ffmpeg ? "\(f[2]) \(f[5])" : "\(f[1]) \(f[3])"
        }
    }

    static func source(_ kind: String, in dir: String) throws -> String {
        // the variable one: times wobble around 30 fps and jump 0.3 s after frame 40
        let filter = kind == "cfr" ? "testsrc2=s=64x48:r=25:d=2"
            : "testsrc2=s=64x48:r=30:d=3,setpts='PTS+0.37*sin(N)/TB*0.05+if(gt(N,40),0.3/TB,0)'"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", filter, "-c:v", "libx264", "-preset", "veryfast",
                                       "-fps_mode", "passthrough", dir + "/\(kind).mp4"])
        #expect(r.status == 0, "\(r.stderr)")
        return kind + ".mp4"
    }

    @Test(arguments: [("cfr", "60"), ("cfr", "10"), ("cfr", "30000/1001"), ("cfr", "24"), ("vfr", "25"), ("vfr", "60"), ("vfr", "12")])
    func framesAndTimesAreFFmpegs(_ kind: String, _ rate: String) throws {
        let dir = CLI.tempDir()
        let file = try Self.source(kind, in: dir)
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(file)" } },
                     "f": { "type": "fps", "params": { "rate": "\(rate)" } },
                     "out": { "type": "framehash", "params": { "path": "ours.txt" } } },
          "chains": [["in.video", "f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/" + file, "-vf", "fps=\(rate)", "-fps_mode", "passthrough",
                                       "-f", "framemd5", dir + "/ffmpeg.txt"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = Self.frames(dir + "/ours.txt", ffmpeg: false), theirs = Self.frames(dir + "/ffmpeg.txt", ffmpeg: true)
        #expect(ours.count > 10 && ours == theirs, "\(ours.count) frames vs ffmpeg's \(theirs.count); first difference at \(zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        // the run says what it did
        #expect(r.stderr.contains("node 'f' (fps): "), "\(r.stderr)")
        // validate shows the new rate and time base
        let v = try CLI.mediagraph("validate", g)
        #expect(v.out.contains("f -> out.in: video/raw yuv420p 64x48 @\(rate.contains("/") ? rate : rate + "/1")"), "\(v.out)")
    }

    @Test func aRateOfZeroIsRefused() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2 } }, "f": { "type": "fps", "params": { "rate": 0 } },
                     "out": { "type": "nullsink" } }, "chains": [["src", "f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains("node 'f'") && r.stderr.contains("'rate'"), "\(r.stderr)")
    }
}
