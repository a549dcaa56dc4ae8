// The "fusion" benchmark area: invert → sepia → contrast → saturation on 1920x1080 rgba, net of
// making the frames (the same graph with no filter subtracted), fused (one pass) against one
// invert, the same chain stage by stage ("fuse": false), and ffmpeg's negate,colorchannelmixer,eq
// net of its own plain read of a raw file. Every case is a whole process under /usr/bin/time
// (wall and user+sys CPU, 10 ms resolution): ours run 3000 frames of testsrc (cheap to make, so
// the net figures are not lost in reading; an invert's net is about 0.1 ms a frame, which 600
// frames left within the resolution), ffmpeg 60 frames of the raw file; best of five.
import Foundation

enum FusionBench {
    static let area = BenchArea(name: "fusion", run: run)
    static let width = 1920, height = 1080, frames = 60, ourFrames = 3000

    static func run() {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mg-fusion-bench-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/in.rgba"
        guard CodecBench.shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=30",
                                "-frames:v", "\(frames)", "-pix_fmt", "rgba", "-f", "rawvideo", input]) != nil else {
            print("could not generate the input with ffmpeg")
            return
        }
        let mediagraph = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("mediagraph").path
        let chain = [#""inv": { "type": "invert" }"#, #""sep": { "type": "sepia" }"#,
                     #""con": { "type": "contrast", "params": { "amount": 0.8 } }"#,
                     #""sat": { "type": "saturation", "params": { "amount": 0.8 } }"#]
        func graph(_ name: String, _ filters: [String], fuse: Bool = true) -> [String] {
            let ids = filters.map { String($0.dropFirst().prefix { $0 != "\"" }) }
            let nodes = (["\"src\": { \"type\": \"testsrc\", \"params\": { \"frames\": \(ourFrames), \"width\": \(width), \"height\": \(height), \"format\": \"rgba\" } }"]
                         + filters + ["\"out\": { \"type\": \"nullsink\" }"]).joined(separator: ", ")
            let refs = (["src"] + ids + ["out"]).map { "\"\($0)\"" }.joined(separator: ", ")
            let path = dir + "/\(name).json"
            try? "{ \(fuse ? "" : "\"fuse\": false, ")\"nodes\": { \(nodes) }, \"chains\": [[\(refs)]] }".write(toFile: path, atomically: true, encoding: .utf8)
            return [mediagraph, "run", "--quiet", path]
        }
        let sepia = "colorchannelmixer=0.3588:0.7044:0.1368:0:0.2990:0.5870:0.1140:0:0.2392:0.4696:0.0912"
        let ffmpegIn = ["ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-i", input]
        let cases: [(String, [String])] = [
            ("ours: read only", graph("read", [])),
            ("ours: invert", graph("invert", [chain[0]])),
            ("ours: 4 filters fused", graph("fused", chain)),
            ("ours: 4 filters stage by stage", graph("staged", chain, fuse: false)),
            ("ffmpeg: read only", ffmpegIn + ["-f", "null", "-"]),
            ("ffmpeg: negate,colorchannelmixer,eq", ffmpegIn + ["-vf", "negate,\(sepia),eq=contrast=0.8:saturation=0.8", "-f", "null", "-"]),
        ]
        var best: [String: CodecBench.Measure] = [:]
        for _ in 1...5 {
            for (name, command) in cases {
                guard let m = CodecBench.timed(command) else { print("\(name): failed"); continue }
                if let b = best[name], b.wall <= m.wall { continue }
                best[name] = m
            }
        }
        print("\(width)x\(height) rgba, invert → sepia → contrast 0.8 → saturation 0.8; ours \(ourFrames) testsrc frames, ffmpeg \(frames) raw frames; ms/frame, best of 5 (CPU = user+sys)")
        func perFrame(_ name: String) -> (wall: Double, cpu: Double)? {
            let n = Double(name.hasPrefix("ours") ? ourFrames : frames)
            return best[name].map { ($0.wall * 1000 / n, $0.cpu * 1000 / n) }
        }
        for (name, _) in cases {
            if let m = perFrame(name) { print(String(format: "%-40@ %8.2f wall %8.2f CPU", name as NSString, m.wall, m.cpu)) }
        }
        func net(_ name: String, _ base: String) -> (wall: Double, cpu: Double)? {
            guard let a = perFrame(name), let b = perFrame(base) else { return nil }
            return (a.wall - b.wall, a.cpu - b.cpu)
        }
        guard let invert = net("ours: invert", "ours: read only"), let fused = net("ours: 4 filters fused", "ours: read only"),
              let staged = net("ours: 4 filters stage by stage", "ours: read only"),
              let ffmpeg = net("ffmpeg: negate,colorchannelmixer,eq", "ffmpeg: read only") else { return }
        print(String(format: "net ms/frame (wall / CPU): invert %.2f / %.2f, fused chain %.2f / %.2f, stage by stage %.2f / %.2f, ffmpeg %.2f / %.2f",
                     invert.wall, invert.cpu, fused.wall, fused.cpu, staged.wall, staged.cpu, ffmpeg.wall, ffmpeg.cpu))
        print(String(format: "fused / invert: wall %.2fx CPU %.2fx (goal <= 1.3); ffmpeg / fused: wall %.1fx CPU %.1fx (goal >= 10); stage by stage / fused: CPU %.2fx",
                     fused.wall / invert.wall, fused.cpu / invert.cpu, ffmpeg.wall / fused.wall, ffmpeg.cpu / fused.cpu, staged.cpu / fused.cpu))
    }
}
