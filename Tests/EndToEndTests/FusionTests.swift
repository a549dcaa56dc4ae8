import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import Testing

/// A run of colour filters becomes one pass (Docs/filters.md, "Fusion"): within the bound
/// documented there of running them one by one, the stage-by-stage switches reproduce separate runs byte for
/// byte, and `validate` says what was fused and why a neighbour was not.
@Suite struct FusionTests {
    /// testsrc2 with noise at an odd size, so every colour region and many values occur.
    static func input(_ pixfmt: String, in dir: String) throws -> String {
        let path = dir + "/in-\(pixfmt).raw"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=386x290:rate=25", "-frames:v", "2",
                               "-vf", "scale=385:289,noise=alls=60:allf=t", "-pix_fmt", pixfmt, "-f", "rawvideo", path])
        return path
    }

    /// One filter with random params from its declared range: its type and params (inside braces).
    static func randomFilter(_ rng: inout SplitMix) -> (type: String, params: String) {
        func r(_ lo: Double, _ hi: Double) -> String { String(format: "%.4f", lo + (hi - lo) * rng.unit()) }
        switch rng.next() % 10 {
        case 0: return ("invert", "")
        case 1: return ("brightness", "\"amount\": \(r(-0.5, 0.5))")
        case 2: return ("contrast", "\"amount\": \(r(0.2, 2.5))")
        case 3: return ("saturation", "\"amount\": \(r(0, 2))")
        case 4: return ("exposure", "\"ev\": \(r(-1.5, 1.5))")
        case 5: return ("sepia", "\"intensity\": \(r(0, 1))")
        case 6: return ("grayscale", "")
        case 7: return ("hue", "\"degrees\": \(r(-180, 180))")
        case 8: return ("rgb", "\"red\": \(r(0.3, 1.8)), \"green\": \(r(0.3, 1.8)), \"blue\": \(r(0.3, 1.8))")
        default: return ("colormatrix", "\"preset\": \"vivid\", \"intensity\": \(r(0, 1))")
        }
    }

    /// A filter's node in a graph file, with `"fuse": false` when `separate`.
    static func node(_ f: (type: String, params: String), separate: Bool = false) -> String {
        let params = [f.params, separate ? "\"fuse\": false" : ""].filter { !$0.isEmpty }.joined(separator: ", ")
        return "{ \"type\": \"\(f.type)\", \"params\": { \(params) } }"
    }

    /// A graph file: raw input → the filters → raw output.
    static func graph(_ filters: [String], input: String, output: String, pixfmt: String, top: String = "") -> String {
        let ids = filters.indices.map { "f\($0)" }
        let nodes = zip(ids, filters).map { "\"\($0)\": \($1)" }.joined(separator: ", ")
        let chain = (["src"] + ids + ["out"]).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        { \(top) "nodes": { "src": { "type": "rawsrc", "params": { "path": "\(input)", "width": 385, "height": 289, "format": "\(pixfmt)" } },
                     \(nodes), "out": { "type": "rawsink", "params": { "path": "\(output)" } } },
          "chains": [[\(chain)]] }
        """
    }

    /// Runs a graph in this process; returns its validated form (to see what was fused).
    @discardableResult
    static func run(_ json: String) throws -> ValidatedGraph {
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        try GraphRunner(graph: g).run()
        return g
    }

    /// A filter's map, made by its own node type from the params in its graph-file node.
    static func colorMap(_ node: String, input: String) throws -> ColorTransform {
        let json = graph([node], input: input, output: input + ".unused", pixfmt: "rgba")
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        guard let map = (g.nodes.first { $0.id == "f0" }?.instance as? KernelFilter)?.colorMap else { throw NodeFailure("not a colour map: \(node)") }
        return map
    }

    static func bytes(_ path: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: path) ?? Data()) }

    @Test(arguments: ["rgba", "bgra"])
    func randomChainsStayWithinTheBoundOfStageByStage(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let input = try Self.input(pixfmt, in: dir)
        var rng = SplitMix(seed: pixfmt == "rgba" ? 15 : 16)
        var fusedChains = 0
        for k in 0..<16 {
            let filters = (0..<(2 + Int(rng.next() % 7))).map { _ in Self.node(Self.randomFilter(&rng)) }
            let fused = dir + "/fused-\(k).raw", staged = dir + "/staged-\(k).raw"
            let g = try Self.run(Self.graph(filters, input: input, output: fused, pixfmt: pixfmt))
            try Self.run(Self.graph(filters, input: input, output: staged, pixfmt: pixfmt, top: "\"fuse\": false,"))
            if g.nodes.count < filters.count + 2 { fusedChains += 1 }
            let a = Self.bytes(fused), b = Self.bytes(staged)
            #expect(a.count == 385 * 289 * 4 * 2 && a.count == b.count)
            let worst = largestDifference(a, b)
            let maps = try filters.map { try Self.colorMap($0, input: input) }
            #expect(worst <= ColorMapFusion.bound(maps), "chain \(k) \(filters): \(worst) LSB from stage by stage\n\(g.notes.joined(separator: "\n"))")
        }
        #expect(fusedChains >= 6, "only \(fusedChains) of 16 chains fused")  // random params often leave 0…1, which ends a pass
    }

    /// Curves (gamma, levels) with the colour maps that act on one channel at a time (invert,
    /// brightness, contrast, exposure, rgb), random params: the whole chain is one table pass
    /// and gives exactly the bytes of running the filters stage by stage.
    @Test(arguments: ["rgba", "bgra"])
    func curvesAndPerChannelMapsFuseIntoOneExactTable(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let input = try Self.input(pixfmt, in: dir)
        var rng = SplitMix(seed: pixfmt == "rgba" ? 21 : 22)
        func r(_ lo: Double, _ hi: Double) -> String { String(format: "%.4f", lo + (hi - lo) * rng.unit()) }
        for k in 0..<8 {
            var filters: [String] = []
            for _ in 0..<(1 + Int(rng.next() % 5)) {
                switch rng.next() % 7 {
                case 0: filters.append(Self.node(("invert", "")))
                case 1: filters.append(Self.node(("brightness", "\"amount\": \(r(-0.5, 0.5))")))
                case 2: filters.append(Self.node(("contrast", "\"amount\": \(r(0.2, 2.5))")))
                case 3: filters.append(Self.node(("exposure", "\"ev\": \(r(-1.5, 1.5))")))
                case 4: filters.append(Self.node(("rgb", "\"red\": \(r(0.3, 1.8)), \"green\": \(r(0.3, 1.8)), \"blue\": \(r(0.3, 1.8))")))
                case 5: filters.append(Self.node(("levels", "\"input-min\": \(r(0, 0.3)), \"input-max\": \(r(0.7, 1)), \"gamma\": \(r(0.5, 2)), \"red-output-max\": \(r(0.6, 1))")))
                default: filters.append(Self.node(("gamma", "\"gamma\": \(r(0.3, 2.5))")))
                }
            }
            // at least one curve, anywhere in the chain
            filters.insert(Self.node(("gamma", "\"gamma\": \(r(0.3, 2.5))")), at: Int(rng.next() % UInt64(filters.count + 1)))
            let fused = dir + "/fused-\(k).raw", staged = dir + "/staged-\(k).raw"
            let g = try Self.run(Self.graph(filters, input: input, output: fused, pixfmt: pixfmt))
            try Self.run(Self.graph(filters, input: input, output: staged, pixfmt: pixfmt, top: "\"fuse\": false,"))
            #expect(g.nodes.count == 3, "chain \(k) \(filters) was not one pass: \(g.nodes.map(\.id))")
            let a = Self.bytes(fused), b = Self.bytes(staged)
            #expect(a.count == 385 * 289 * 4 * 2 && a == b, "chain \(k) \(filters) differs from stage by stage")
        }
    }

    /// A .cube file of `size`³ entries that mixes channels non-linearly (each output reads all
    /// three inputs), so no table or matrix could stand for it.
    static func cube(_ path: String, size: Int, twist: Double) throws {
        var text = "LUT_3D_SIZE \(size)\n"
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let (x, y, z) = (Double(r) / Double(size - 1), Double(g) / Double(size - 1), Double(b) / Double(size - 1))
            let out = [0.7 * x + 0.3 * y * z, pow(y, 1 + twist) * (0.8 + 0.2 * x), 0.6 * z + 0.4 * x * x]
            text += out.map { String(format: "%.6f", min(max($0, 0), 1)) }.joined(separator: " ") + "\n"
        } } }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The bound `validate` states for a fused node: 0 for "the same bytes".
    static func statedBound(_ notes: [String]) -> Int? {
        guard let note = notes.first(where: { $0.hasPrefix("fused ") }) else { return nil }
        if note.contains("the same bytes as stage by stage") { return 0 }
        guard let r = note.range(of: #"within (\d+) LSB"#, options: .regularExpression) else { return nil }
        return Int(note[r].split(separator: " ")[1])
    }

    /// Runs mixing curves, colour matrices and 3D LUTs, random params: one node, one pass strip
    /// by strip, within the bound `validate` states of stage by stage — the same bytes when no
    /// matrix stretch skips a rounding.
    @Test(arguments: ["rgba", "bgra"])
    func mixedRunsAreOnePassWithinTheStatedBound(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let input = try Self.input(pixfmt, in: dir)
        try Self.cube(dir + "/a.cube", size: 17, twist: 0.4)
        try Self.cube(dir + "/b.cube", size: 5, twist: -0.3)
        var rng = SplitMix(seed: pixfmt == "rgba" ? 31 : 32)
        func r(_ lo: Double, _ hi: Double) -> String { String(format: "%.4f", lo + (hi - lo) * rng.unit()) }
        var exact = 0
        for k in 0..<12 {
            var filters: [String] = []
            for _ in 0..<(3 + Int(rng.next() % 5)) {
                switch rng.next() % 7 {
                case 0: filters.append(Self.node(("gamma", "\"gamma\": \(r(0.3, 2.5))")))
                case 1: filters.append(Self.node(("levels", "\"input-min\": \(r(0, 0.3)), \"input-max\": \(r(0.7, 1)), \"gamma\": \(r(0.5, 2))")))
                case 2: filters.append(Self.node(("lut3d", "\"file\": \"\(dir)/\(rng.next() % 2 == 0 ? "a" : "b").cube\", \"interpolation\": \"\(rng.next() % 2 == 0 ? "trilinear" : "tetrahedral")\"")))
                default: filters.append(Self.node(Self.randomFilter(&rng)))
                }
            }
            filters.insert(Self.node(("lut3d", "\"file\": \"\(dir)/a.cube\"")), at: Int(rng.next() % UInt64(filters.count + 1)))
            let fused = dir + "/mixed-\(k).raw", staged = dir + "/mixed-staged-\(k).raw"
            let g = try Self.run(Self.graph(filters, input: input, output: fused, pixfmt: pixfmt))
            try Self.run(Self.graph(filters, input: input, output: staged, pixfmt: pixfmt, top: "\"fuse\": false,"))
            #expect(g.nodes.count == 3, "chain \(k) \(filters) was not one pass: \(g.nodes.map(\.id))")
            let a = Self.bytes(fused), b = Self.bytes(staged)
            #expect(a.count == 385 * 289 * 4 * 2 && a.count == b.count)
            let worst = largestDifference(a, b)
            let stated = Self.statedBound(g.notes)
            #expect(stated != nil && worst <= stated!, "chain \(k) \(filters): \(worst) LSB from stage by stage, stated \(stated ?? -1)\n\(g.notes.joined(separator: "\n"))")
            if stated == 0 { exact += 1 }
        }
        // both kinds occur: chains whose matrices skip a rounding, and exact ones
        #expect(exact >= 2 && exact <= 10, "\(exact) of 12 chains were exact")
    }

    /// `"fuse": false` (graph or node) keeps the filters apart: the same bytes as running each
    /// filter in a graph of its own, one after the other.
    @Test func stageByStageSwitchesReproduceSeparateRuns() throws {
        let dir = CLI.tempDir()
        let input = try Self.input("rgba", in: dir)
        var rng = SplitMix(seed: 7)
        let filters = (0..<6).map { _ in Self.node(Self.randomFilter(&rng)) }
        var again = SplitMix(seed: 7)
        let unfusable = (0..<6).map { _ in Self.node(Self.randomFilter(&again), separate: true) }
        var previous = input
        for (k, f) in filters.enumerated() {
            let next = dir + "/one-\(k).raw"
            try Self.run(Self.graph([f], input: previous, output: next, pixfmt: "rgba"))
            previous = next
        }
        let separate = Self.bytes(previous)
        try Self.run(Self.graph(filters, input: input, output: dir + "/graph-off.raw", pixfmt: "rgba", top: "\"fuse\": false,"))
        #expect(Self.bytes(dir + "/graph-off.raw") == separate)
        let g = try Self.run(Self.graph(unfusable, input: input, output: dir + "/node-off.raw", pixfmt: "rgba"))
        #expect(g.nodes.count == filters.count + 2, "\(g.nodes.map(\.id))")
        #expect(Self.bytes(dir + "/node-off.raw") == separate)
    }

    @Test func validateSaysWhatWasFusedAndWhy() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 2, "format": "rgba" } },
                     "inv": { "type": "invert" }, "sep": { "type": "sepia" }, "con": { "type": "contrast", "params": { "amount": 0.8 } },
                     "gam": { "type": "gamma", "params": { "gamma": 1.2 } }, "bri": { "type": "brightness", "params": { "amount": 0.1 } },
                     "sat": { "type": "saturation", "params": { "amount": 0.5, "fuse": false } },
                     "hue": { "type": "hue", "params": { "degrees": 30 } }, "gray": { "type": "grayscale" },
                     "a": { "type": "nullsink" }, "b": { "type": "nullsink" } },
          "chains": [["src", "inv", "sep", "con", "gam", "bri", "sat", "hue", "a"], ["hue", "gray", "b"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 0, "\(r.stderr)")
        // invert and sepia compose into one matrix; contrast, gamma and brightness each act on
        // one channel at a time: one exact table; the two run as one pass strip by strip, and
        // the matrix's skipped rounding (1 LSB) goes through the tables' steepest step (2)
        #expect(r.out.contains("  inv+sep+con+gam+bri (fused: invert+sepia+contrast+gamma+brightness) — inline\n"), "\(r.out)")
        #expect(r.out.contains("note: fused 'inv', 'sep', 'con', 'gam', 'bri' (invert+sepia+contrast+gamma+brightness) into one pass 'inv+sep+con+gam+bri': "
            + "'inv', 'sep' as one colour matrix, then 'con', 'gam', 'bri' as one table per channel, strip by strip (each frame read and written once); "
            + "within 2 LSB of stage-by-stage output (8-bit roundings skipped)\n"), "\(r.out)")
        #expect(r.out.contains("note: 'sat' not fused with 'bri': its \"fuse\" param is false\n"), "\(r.out)")
        #expect(r.out.contains("note: 'hue' not fused with its consumers: its output feeds 2 nodes (fan-out)\n"), "\(r.out)")
        let stats = try CLI.mediagraph("run", "--quiet", "--stats", g)
        #expect(stats.status == 0 && stats.stderr.contains("inv+sep+con+gam+bri"), "\(stats.stderr)")
    }

    /// Members of a fused shader pass are not live: a change aimed at one says where it went.
    @Test func liveChangeOfAFusedShaderSaysWhereItWent() throws {
        let dir = CLI.tempDir()
        let input = try Self.input("rgba", in: dir)
        let shader = #"{ "type": "shader", "params": { "source": "varying highp vec2 textureCoordinate; uniform sampler2D inputImageTexture; uniform highp float k; void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate) * k; }", "uniforms": { "k": 0.5 } } }"#
        let json = Self.graph([shader, shader], input: input, output: dir + "/o.raw", pixfmt: "rgba")
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        let runner = GraphRunner(graph: g)
        do { try runner.setParam(node: "f1", "uniforms", to: .object([], nil)); Issue.record("accepted") } catch {
            #expect("\(error)" == "node 'f1' runs fused into 'f0+f1' (see `mediagraph validate`); give it \"fuse\": false to change its params while the graph runs")
        }
    }
}

/// A small seeded generator (SplitMix64), so every run tests the same chains.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
