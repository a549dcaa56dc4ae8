// The "graphcost" benchmark area: what one filter costs inside a graph (testsrc → filter →
// nullsink, frames streamed from the pool) against its kernel alone on streamed frames (ten
// distinct 1080p frames cycled, 80 MB: more than the caches hold), one and two threads, CPU
// time beside wall. Issue 15 item 5: the in-graph net cost should be at most 1.5x the kernel's.
import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import MediaGraphShader

enum GraphCostBench {
    static let width = 1920, height = 1080

    static let area = BenchArea(name: "graphcost", run: run)

    /// A filter measured both ways: its graph node (JSON) and the same kernel called directly.
    struct Case {
        var name: String
        /// The node's JSON object without `threads`.
        var node: String
        /// Frames per graph run (a slow shader gets fewer).
        var frames: Int
        /// Whether the graph runs the filter in place (the kernel alone is timed the same way).
        var inPlace: Bool
        var kernel: (FramePlanes, FramePlanes, Int) throws -> Void
    }

    static func shaderText(_ name: String) -> String? {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Graphs/shaders")
        return try? String(contentsOf: dir.appendingPathComponent(name + ".glsl"), encoding: .utf8)
    }

    static func cases() throws -> [Case] {
        let invert = InvertKernel()
        let sepia = ColorMatrixKernel(try ColorTransform.sepia())
        var list = [
            Case(name: "invert", node: #"{ "type": "invert" }"#, frames: 300, inPlace: true,
                 kernel: { try invert.run(source: $1, destination: $1, threads: $2) }),
            Case(name: "sepia (colour matrix)", node: #"{ "type": "sepia" }"#, frames: 300, inPlace: true,
                 kernel: { try sepia.run(source: $1, destination: $1, threads: $2) }),
        ]
        if let swirl = shaderText("swirl") {
            let uniforms: [String: ShaderUniformValue] = ["center": [0.5, 0.5], "radius": 0.5, "angle": 1.2]
            let kernel = ShaderKernel(program: try ShaderProgram(source: swirl, fileName: "swirl.glsl").bind(uniforms: uniforms))
            let escaped = swirl.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            list.append(Case(name: "swirl shader", node: """
                { "type": "shader", "params": { "source": "\(escaped)", "uniforms": { "center": [0.5, 0.5], "radius": 0.5, "angle": 1.2 } } }
                """, frames: 20, inPlace: false, kernel: { try kernel.run(source: $0, destination: $1, threads: $2) }))
        }
        return list
    }

    /// Wall and CPU ms per frame of one run of testsrc (rgba 1080p) → [filter] → nullsink.
    static func graph(_ node: String?, threads: Int, frames: Int) throws -> KernelBench.Cost {
        var filter = ""
        if var node {
            // the filter's threads param, set inside its params object
            if node.contains("\"params\": {") {
                node = node.replacingOccurrences(of: "\"params\": {", with: "\"params\": { \"threads\": \(threads),")
            } else {
                node = String(node.dropLast(1)) + ", \"params\": { \"threads\": \(threads) } }"
            }
            filter = "\"fx\": \(node),"
        }
        let text = """
        { "nodes": { "src": { "type": "testsrc", "params": { "width": \(width), "height": \(height), "format": "rgba", "frames": \(frames) } },
                     \(filter) "sink": { "type": "nullsink" } },
          "chains": [[\(filter.isEmpty ? "" : "\"src\", \"fx\", \"sink\"" )\(filter.isEmpty ? "\"src\", \"sink\"" : "")]] }
        """
        let spec = try GraphFile.parse(text: text)
        let g = try GraphBuilder.build(spec, registry: BuiltinNodes.makeRegistry())
        let runner = GraphRunner(graph: g)
        let start = KernelBench.now(), startCPU = KernelBench.cpu()
        try runner.run()
        return KernelBench.Cost(wall: (KernelBench.now() - start) / Double(frames),
                                cpu: (KernelBench.cpu() - startCPU) / Double(frames))
    }

    /// The smaller wall and the smaller CPU figure of `rounds` measurements (a loaded machine
    /// only ever adds time).
    static func best(_ rounds: Int, _ body: () throws -> KernelBench.Cost) rethrows -> KernelBench.Cost {
        var b = KernelBench.Cost(wall: .infinity, cpu: .infinity)
        for _ in 0..<rounds {
            let c = try body()
            b = KernelBench.Cost(wall: min(b.wall, c.wall), cpu: min(b.cpu, c.cpu))
        }
        return b
    }

    /// `graphcost --swirl-child`: one whole process running the Swirl graph with default threads,
    /// printing "cpu wall oneThreadRuns runs" (ms per frame) for the parent to collect.
    static func swirlChild() {
        guard let c = try? cases().first(where: { $0.name.hasPrefix("swirl") }) else { return }
        let before = RowBands.statistics
        guard let cost = try? graph(c.node, threads: 0, frames: 10) else { return }
        let b = RowBands.statistics - before
        print(String(format: "%.2f %.2f %d %d", cost.cpu, cost.wall, b.oneThreadRuns, b.runs))
    }

    /// Issue 15: some whole-process runs of the Swirl shader with default threads used one
    /// thread's CPU time. Runs `runs` child processes per band runner and prints each.
    static func wholeProcessRuns(_ runs: Int) {
        let me = CommandLine.arguments[0]
        for mode in ["dispatch", "crew"] {
            var lines: [String] = []
            for _ in 0..<runs {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: me)
                p.arguments = ["graphcost", "--swirl-child"]
                var env = ProcessInfo.processInfo.environment
                env["MEDIAGRAPH_BANDS"] = mode
                p.environment = env
                let pipe = Pipe()
                p.standardOutput = pipe
                guard (try? p.run()) != nil else { return }
                let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                p.waitUntilExit()
                let f = out.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
                guard f.count == 4 else { continue }
                lines.append("\(f[0]) / \(f[1]) (\(f[2]) of \(f[3]) frames on one thread)")
            }
            print("  \(mode == "crew" ? "BandCrew" : "Dispatch (before)"): " + lines.joined(separator: "; "))
        }
    }

    static func run() {
        if CommandLine.arguments.contains("--swirl-child") { return swirlChild() }
        let threadCounts = [1, max(2, RowBands.coreCount)]
        let rounds = Int(ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_ROUNDS"] ?? "") ?? 3
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediagraph-graphcost-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let raw = KernelBench.makeInput(.rgba, dir: dir) else {
            print("graphcost: ffmpeg could not make the input frames; is ffmpeg on PATH?")
            return
        }
        let frames = KernelBench.FrameSet(format: .rgba, raw: raw, count: KernelBench.distinctFrames)
        let outs = KernelBench.FrameSet(format: .rgba, raw: raw, count: KernelBench.distinctFrames)
        do {
            let only = (ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init)
            print("1920x1080 rgba; CPU ms/frame / wall ms/frame, best of \(rounds) (a loaded machine only adds time).")
            print("graph: testsrc -> filter -> nullsink, net of testsrc -> nullsink; kernel: the same kernel alone on "
                + "\(KernelBench.distinctFrames) distinct frames cycled (streamed, not cached), in place where the graph runs it in place.")
            print("")
            let header = ["filter", "threads", "testsrc alone", "graph", "graph net", "kernel alone", "net / kernel (cpu, wall)",
                          "1-thread runs (graph)", "wake, wait µs/run"]
            var table: [[String]] = []
            for c in try cases() where only.isEmpty || only.contains(where: { c.name.contains($0) }) {
                for t in threadCounts {
                    _ = try graph(c.node, threads: t, frames: min(c.frames, 10))   // warm-up: pools, code
                    let bare = try best(rounds) { try graph(nil, threads: t, frames: c.frames) }
                    let before = RowBands.statistics
                    let full = try best(rounds) { try graph(c.node, threads: t, frames: c.frames) }
                    let bands = RowBands.statistics - before
                    let net = full - bare
                    let kernelFrames = c.frames
                    let alone = try best(rounds) {
                        for i in 0..<frames.frames.count { try c.kernel(frames.frames[i], outs.frames[i], t) }
                        let start = KernelBench.now(), startCPU = KernelBench.cpu()
                        for i in 0..<kernelFrames {
                            let k = i % frames.frames.count
                            try c.kernel(frames.frames[k], outs.frames[k], t)
                        }
                        return KernelBench.Cost(wall: (KernelBench.now() - start) / Double(kernelFrames),
                                                cpu: (KernelBench.cpu() - startCPU) / Double(kernelFrames))
                    }
                    table.append([c.name, "\(t)", KernelBench.fmt(bare), KernelBench.fmt(full), KernelBench.fmt(net),
                                  KernelBench.fmt(alone),
                                  String(format: "%.2fx, %.2fx", net.cpu / alone.cpu, net.wall / alone.wall),
                                  t == 1 ? "-" : "\(bands.oneThreadRuns) of \(bands.runs)",
                                  t == 1 || bands.runs == 0 ? "-" : String(format: "%.0f, %.0f", Double(bands.workerStartNanos) / 1e3 / Double(bands.runs),
                                                                             Double(bands.callerWaitNanos) / 1e3 / Double(bands.runs))])
                }
            }
            KernelBench.printTable(header, table)
            if only.isEmpty || only.contains("swirl") {
                print("")
                print("Swirl in a graph, default threads, 10 frames, whole processes (CPU ms/frame / wall ms/frame each):")
                wholeProcessRuns(Int(ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_PROCESSES"] ?? "") ?? 4)
            }
        } catch {
            print("graphcost bench failed: \(error)")
        }
    }
}
