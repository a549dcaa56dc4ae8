// Part of the "plugins" benchmark area: a frei0r mixer hosted as a two-input node at 1080p
// (frei0r.addition, frei0r.multiply: the engine's synchroniser, a pooled output frame, one
// f0r_update2 per frame) against ffmpeg's `blend` with the same formula. ffmpeg's `frei0r`
// filter takes one input only, so it cannot host a mixer; `blend` is the nearest ffmpeg does.
import Foundation
import MediaGraphCore
import MediaGraphNodes
import MediaGraphPlugins

enum Frei0rMixerBench {
    struct Timing { var wall: Double; var cpu: Double }

    static func cpuSeconds(_ who: Int32) -> Double {
        var u = rusage()
        getrusage(who, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    /// ms per frame (wall, CPU of this process or of its waited-for children) of `body`.
    static func measure(frames: Int, children: Bool = false, _ body: () throws -> Void) rethrows -> Timing {
        let who = children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue
        let cpu0 = cpuSeconds(who), start = DispatchTime.now().uptimeNanoseconds
        try body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        return Timing(wall: wall / Double(frames), cpu: (cpuSeconds(who) - cpu0) * 1000 / Double(frames))
    }

    static func shell(_ args: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    /// Our graph: two 1080p rgba sources → `type` → nullsink, `frames` output frames.
    static func ours(_ type: String, frames: Int, registry: NodeRegistry) throws -> Timing {
        var spec = GraphSpec()
        spec.add("a", "bench-frames", [("count", .int(frames))])
        spec.add("b", "bench-frames", [("count", .int(frames))])
        spec.add("m", type)
        spec.add("sink", "nullsink")
        spec.chain("a", "m.in")
        spec.chain("b", "m.in1")
        spec.chain("m", "sink")
        let g = try GraphBuilder.build(spec, registry: registry)
        return try measure(frames: frames) { try GraphRunner(graph: g).run() }
    }

    static func run() {
        let width = 1920, height = 1080, frames = 200, ffmpegFrames = 200
        let catalog = PluginCatalog(registry: BuiltinNodes.makeRegistry())
        catalog.registry.add(PluginBench.FrameSource.self)
        catalog.loadFrei0r(.named(["frei0r.addition", "frei0r.multiply"]))
        if let f = catalog.failures.first {
            print("frei0r mixer bench skipped: \(f) (scripts/setup.sh installs frei0r-plugins)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("frei0r-mixer-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // ffmpeg reads gbrap, blend's own planar format, so no conversion is in its figure
        for (name, pattern) in [("a", "testsrc2"), ("b", "rgbtestsrc")] {
            guard shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=\(width)x\(height):rate=25",
                         "-frames:v", "1", "-pix_fmt", "gbrap", "-f", "rawvideo", dir.appendingPathComponent("\(name).gbrap").path]) else {
                print("frei0r mixer bench: ffmpeg could not make the input frames; skipped")
                return
            }
        }
        func ffmpeg(_ filter: String) -> Timing? {
            var args = ["ffmpeg", "-v", "error", "-nostdin", "-threads", "1", "-filter_threads", "1"]
            for name in ["a", "b"] {
                args += ["-stream_loop", "\(ffmpegFrames - 1)", "-f", "rawvideo", "-pix_fmt", "gbrap", "-s", "\(width)x\(height)",
                         "-i", dir.appendingPathComponent("\(name).gbrap").path]
            }
            var ok = true
            let t = measure(frames: ffmpegFrames, children: true) { ok = shell(args + ["-filter_complex", filter, "-f", "null", "-"]) }
            return ok ? t : nil
        }
        func cell(_ t: Timing?) -> String { t.map { String(format: "%.2f / %.2f", $0.cpu, $0.wall) } ?? "n/a" }
        func net(_ t: Timing?, _ base: Timing?) -> Timing? { t.flatMap { t in base.map { Timing(wall: t.wall - $0.wall, cpu: t.cpu - $0.cpu) } } }
        print("frei0r mixers hosted as two-input nodes, 1920x1080, 1 thread; ours \(frames) frames, ffmpeg \(ffmpegFrames); best of 3; CPU ms/frame / wall ms/frame")
        print("ours: the whole graph (two sources of pooled rgba frames → frei0r mixer node → nullsink);")
        print("ffmpeg: two raw gbrap inputs → blend → null; net = less the same command without blend (reading the inputs)")
        // best of 3 by CPU time, ours and ffmpeg's alternating: the machine is shared
        func best(_ runs: [Timing?]) -> Timing? { runs.compactMap { $0 }.min { $0.cpu < $1.cpu } }
        let null = best((0..<3).map { _ in ffmpeg("[0]null[x];[1]nullsink;[x]null") })
        var rows: [[String]] = []
        for (type, mode) in [("frei0r.addition", "addition"), ("frei0r.multiply", "multiply")] {
            do {
                _ = try ours(type, frames: 10, registry: catalog.registry)   // warm-up: pools, page faults
                var mine = try ours(type, frames: frames, registry: catalog.registry)
                var runs = [ffmpeg("[0][1]blend=all_mode=\(mode)")]
                for _ in 0..<2 {
                    let again = try ours(type, frames: frames, registry: catalog.registry)
                    if again.cpu < mine.cpu { mine = again }
                    runs.append(ffmpeg("[0][1]blend=all_mode=\(mode)"))
                }
                let theirs = best(runs)
                let n = net(theirs, null)
                let ratio = n.map { String(format: "%.2fx", mine.cpu / $0.cpu) } ?? "n/a"
                rows.append([type, cell(mine), "blend=all_mode=\(mode)", cell(theirs), cell(n), ratio])
            } catch {
                print("frei0r mixer bench \(type) failed: \(error)")
            }
        }
        let header = ["ours", "ours CPU / wall", "ffmpeg filter", "ffmpeg CPU / wall", "ffmpeg net", "ours / ffmpeg net (CPU)"]
        let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max() ?? 0 }
        for row in [header] + rows {
            print("| " + row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: " | ") + " |")
        }
        print("(ffmpeg reading the two inputs alone: \(cell(null)))")
    }
}
