import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import Testing

/// rgba frames of one grey value (alpha 255); `beforeFrame` runs on the source's thread before
/// each frame is sent, so a test can act between two frames.
final class GreySource: SourceNode, RegisteredNode {
    static var beforeFrame: @Sendable (Int) -> Void {
        get { beforeFrameSlot.withLock { $0 } }
        set { beforeFrameSlot.withLock { $0 = newValue } }
    }
    private static let beforeFrameSlot = Lock<@Sendable (Int) -> Void>({ _ in })
    static let frames = Param<Int>("frames", 1...100, default: 4, doc: "frames to send")
    static let value = Param<Int>("value", 0...255, default: 100, doc: "r, g and b")
    static let typeInfo = NodeTypeInfo(name: "t-grey", doc: "grey rgba frames", category: .source,
                                       outputs: [PortSpec("out", .video([.rgba]))], params: ParamSpec.list(frames, value))
    let count: Int, grey: UInt8
    var index = 0
    let format = VideoFormat(pixelFormat: .rgba, width: 4, height: 2)

    init(setup: NodeSetup) throws {
        count = setup.params[Self.frames]
        grey = UInt8(setup.params[Self.value])
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }
    func produce(output: NodeOutput) throws -> Bool {
        guard index < count else { return false }
        GreySource.beforeFrame(index)
        var b = WritableBuffer(frame: format)
        let p = b.planes!
        for y in 0..<format.height {
            for x in 0..<format.width {
                for c in 0..<3 { p.data0[y * p.stride0 + 4 * x + c] = grey }
                p.data0[y * p.stride0 + 4 * x + 3] = 255
            }
        }
        b.pts = Int64(index)
        index += 1
        try output.send(consume b)
        return true
    }
}

/// Keeps every buffer it receives (so the test can compare objects and pixels).
final class KeepingSink: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-keep", doc: "keeps buffers", category: .sink, inputs: [PortSpec("in", .anyVideo)])
    var buffers: [SampleBuffer] = []
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws { buffers.append(buffer) }
    /// The first pixel's red value of each frame.
    var reds: [Int] { buffers.map { Int($0.planes!.data0[0]) } }
}

/// Params declared once (`Param`): neutral settings cost nothing, live params change between
/// frames, errors name the param, and Docs/filters.md shows the declared ranges.
@Suite(.serialized) struct ParamDeclarationTests {
    func build(_ json: String, options: GraphRunner.Options = GraphRunner.Options()) throws -> (ValidatedGraph, GraphRunner) {
        let r = BuiltinNodes.makeRegistry()
        r.add(GreySource.self)
        r.add(KeepingSink.self)
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: r)
        return (g, GraphRunner(graph: g, options: options))
    }

    func sink(_ g: ValidatedGraph, _ id: String) -> KeepingSink { g.nodes.first { $0.id == id }!.instance as! KeepingSink }

    /// The filter's output is the very buffer the other branch of the fan-out got: no copy, no
    /// kernel (a kernel could not write into a shared frame, so it would have made a new one).
    @Test(arguments: [
        "{ \"type\": \"brightness\" }", "{ \"type\": \"contrast\" }", "{ \"type\": \"saturation\" }",
        "{ \"type\": \"exposure\" }", "{ \"type\": \"gamma\" }", "{ \"type\": \"hue\" }",
        "{ \"type\": \"hue\", \"params\": { \"degrees\": -720 } }", "{ \"type\": \"rgb\" }", "{ \"type\": \"levels\" }",
        "{ \"type\": \"sepia\", \"params\": { \"intensity\": 0 } }",
        "{ \"type\": \"colormatrix\", \"params\": { \"preset\": \"vivid\", \"intensity\": 0 } }",
        "{ \"type\": \"colormatrix\", \"params\": { \"matrix\": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] } }",
    ])
    func neutralSettingsForwardTheFrameItself(_ filter: String) throws {
        GreySource.beforeFrame = { _ in }
        let (g, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey", "params": { "frames": 3 } }, "f": \(filter), "k": { "type": "t-keep" },
                     "raw": { "type": "t-keep" } },
          "chains": [["s", "f", "k"], ["s", "raw"]] }
        """)
        try runner.run()
        let out = sink(g, "k").buffers, raw = sink(g, "raw").buffers
        #expect(out.count == 3 && raw.count == 3)
        #if MEDIAGRAPH_TSAN
        // under the thread sanitizer a fan-out gives each branch a copy (NodeOutput.send)
        for (a, b) in zip(out, raw) { #expect(a.planes!.data0[0] == b.planes!.data0[0], "\(filter) changed the frame") }
        #else
        for (a, b) in zip(out, raw) { #expect(a === b, "\(filter) made a new frame") }
        #endif
    }

    @Test func aNonNeutralSettingStillRunsTheKernel() throws {
        GreySource.beforeFrame = { _ in }
        let (g, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey", "params": { "frames": 2 } }, "f": { "type": "brightness", "params": { "amount": 0.2 } },
                     "k": { "type": "t-keep" }, "raw": { "type": "t-keep" } },
          "chains": [["s", "f", "k"], ["s", "raw"]] }
        """)
        try runner.run()
        let out = sink(g, "k").buffers, raw = sink(g, "raw").buffers
        for (a, b) in zip(out, raw) { #expect(a !== b) }
        #expect(sink(g, "k").reds == [151, 151])   // 100 + 0.2·255
        #expect(sink(g, "raw").reds == [100, 100])
    }

    /// brightness changed through the Swift API before frame 3: frames 0…2 as they were, 3…5
    /// brightened (100 + 0.2·255 = 151). The filter runs on the source's thread, so the change
    /// lands exactly between frames 2 and 3.
    @Test func liveParamChangesBetweenFrames() throws {
        let (g, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey", "params": { "frames": 6 } }, "f": { "type": "brightness" }, "k": { "type": "t-keep" } },
          "chains": [["s", "f", "k"]] }
        """)
        let failure = Lock<String?>(nil)
        GreySource.beforeFrame = { i in
            if i == 3 { do { try runner.setParam(node: "f", "amount", to: .number(0.2, nil)) } catch { failure.withLock { $0 = "\(error)" } } }
        }
        defer { GreySource.beforeFrame = { _ in } }
        try runner.run()
        #expect(failure.withLock { $0 } == nil)
        #expect(sink(g, "k").reds == [100, 100, 100, 151, 151, 151])
    }

    /// Behind a queue, the filter's own thread takes the change before the next buffer it
    /// handles, which may be one queued before the change: every frame is wholly old or wholly
    /// new, old ones first, and frame 3 and later are new.
    @Test func liveParamChangeOnAQueuedNode() throws {
        var options = GraphRunner.Options()
        options.threadPerNode = true
        let (g, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey", "params": { "frames": 6 } }, "f": { "type": "brightness" }, "k": { "type": "t-keep" } },
          "chains": [["s", "f", "k"]] }
        """, options: options)
        GreySource.beforeFrame = { i in if i == 3 { try? runner.setParam(node: "f", "amount", to: .number(0.2, nil)) } }
        defer { GreySource.beforeFrame = { _ in } }
        try runner.run()
        let reds = sink(g, "k").reds
        let old = reds.prefix { $0 == 100 }.count
        #expect(old <= 3 && reds.dropFirst(old).allSatisfy { $0 == 151 } && reds.count == 6, "\(reds)")
        // every pixel of a frame has the same value: no frame saw a mix
        for b in sink(g, "k").buffers {
            let p = b.planes!
            let first = p.data0[0]
            #expect((0..<8).allSatisfy { p.data0[$0 / 4 * p.stride0 + 4 * ($0 % 4)] == first })
        }
    }

    @Test func levelsChangedLiveOnOneChannel() throws {
        let (g, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey", "params": { "frames": 4, "value": 51 } }, "f": { "type": "levels" }, "k": { "type": "t-keep" } },
          "chains": [["s", "f", "k"]] }
        """)
        GreySource.beforeFrame = { i in if i == 2 { try? runner.setParam(node: "f", "red-input-max", to: .number(0.4, nil)) } }
        defer { GreySource.beforeFrame = { _ in } }
        try runner.run()
        // red: 0.2 / 0.4 = 0.5 → 127.5, rounded to 128; green unchanged
        #expect(sink(g, "k").reds == [51, 51, 128, 128])
        #expect(sink(g, "k").buffers.map { Int($0.planes!.data0[1]) } == [51, 51, 51, 51])
    }

    /// A live change reaches a filter that runs fused with its neighbours: the pass is composed
    /// again between two frames. brightness → sepia → lut3d is one node; the same change made to
    /// the graph with `"fuse": false` (the filters one by one) gives frames within the stated 1
    /// LSB, and the change lands between frames 1 and 2 in both.
    @Test func liveChangeOfAFusedFilterRecomposesThePass() throws {
        func run(fuse: Bool) throws -> (ValidatedGraph, [[UInt8]]) {
            let (g, runner) = try build("""
            { "fuse": \(fuse), "nodes": { "s": { "type": "t-grey", "params": { "value": 51 } }, "f": { "type": "brightness" }, "p": { "type": "sepia" },
                         "l": { "type": "lut3d", "params": { "file": "\(try Self.identityCube())" } }, "k": { "type": "t-keep" } },
              "chains": [["s", "f", "p", "l", "k"]] }
            """)
            GreySource.beforeFrame = { i in if i == 2 { try? runner.setParam(node: "f", "amount", to: .number(0.2, nil)) } }
            defer { GreySource.beforeFrame = { _ in } }
            try runner.run()
            return (g, sink(g, "k").buffers.map { b in let p = b.planes!; return (0..<32).map { p.data0[$0 / 16 * p.stride0 + $0 % 16] } })
        }
        let (fused, a) = try run(fuse: true)
        let (_, b) = try run(fuse: false)
        #expect(fused.nodes.map(\.id).contains("f+p+l"), "\(fused.nodes.map(\.id))")
        #expect(a.count == 4 && b.count == 4)
        #expect(a[0] == a[1] && a[2] == a[3] && a[1] != a[2], "\(a.map { $0[0] })")
        for (x, y) in zip(a, b) { #expect(zip(x, y).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(x) vs \(y)") }
    }

    @Test func refusedChangesSayWhy() throws {
        let (_, runner) = try build("""
        { "nodes": { "s": { "type": "t-grey" }, "f": { "type": "brightness" }, "l": { "type": "lut3d", "params": { "file": "\(try Self.identityCube())" } },
                     "k": { "type": "t-keep" } },
          "chains": [["s", "f", "l", "k"]] }
        """)
        func message(_ node: String, _ name: String, _ value: JSONValue) -> String {
            do { try runner.setParam(node: node, name, to: value); return "accepted" } catch { return "\(error)" }
        }
        #expect(message("f", "threads", .number(2, nil)) == "node 'f' (brightness) param 'threads' cannot change while the graph runs; params that can: amount")
        #expect(message("f", "amount", .number(3, nil)) == "node 'f' param 'amount': expected number -1…1, found 3")
        #expect(message("f", "amont", .number(0.1, nil)) == "node 'f' (brightness): unknown param 'amont'; did you mean 'amount'?")
        #expect(message("l", "interpolation", .string("trilinear", nil)) == "node 'l' (lut3d) param 'interpolation' cannot change while the graph runs; params that can: none")
        #expect(message("x", "amount", .number(0.1, nil)).hasPrefix("no node 'x' in the graph; nodes: "))
        #expect(message("f", "amount", .number(0.5, nil)) == "accepted")
    }

    static func identityCube() throws -> String {
        let path = CLI.processTempDir + "/identity.cube"
        var text = "LUT_3D_SIZE 2\n"
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 { text += "\(r) \(g) \(b)\n" } } }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Levels names the param whose value is wrong, the per-channel one or the shared one.
    @Test(arguments: [
        ("{ \"red-input-min\": 0.8, \"red-input-max\": 0.5 }", "param 'red-input-min': red-input-min 0.8 must be below red-input-max 0.5"),
        ("{ \"input-min\": 0.6, \"input-max\": 0.4 }", "param 'input-min': input-min 0.6 must be below input-max 0.4"),
        ("{ \"input-max\": 0.5, \"green-input-min\": 0.7 }", "param 'green-input-min': green-input-min 0.7 must be below input-max 0.5"),
    ])
    func levelsErrorsNameTheParam(_ params: String, _ expected: String) throws {
        do {
            _ = try build("""
            { "nodes": { "s": { "type": "t-grey" }, "f": { "type": "levels", "params": \(params) }, "k": { "type": "t-keep" } },
              "chains": [["s", "f", "k"]] }
            """)
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains(expected), "«\(error)»")
        }
    }

    @Test func kernelErrorsNameTheNodeParam() {
        #expect(KernelParamName.paramName("rgb.green") == "green")
        #expect(KernelParamName.paramName("levels.red.inputMin") == "red-input-min")
        #expect(KernelParamName.paramName("levels.all.outputMax") == "output-max")
        #expect(KernelParamName.paramName("matrix[3]") == "matrix")
        #expect(KernelParamName.paramName("hue.degrees") == "degrees")
        #expect(KernelParamName.message(for: .parameterOutOfRange(name: "rgb.blue", value: 5, range: 0...4))
                == "param 'blue': rgb.blue: 5.0 is outside 0.0…4.0")
    }

    /// The kernels check the same ranges the nodes declare (one constant each).
    @Test func kernelsAndDeclarationsShareTheirRanges() throws {
        let r = BuiltinNodes.makeRegistry()
        func range(_ node: String, _ param: String) -> ClosedRange<Double>? {
            guard let t = r.entry(node)?.info.params.first(where: { $0.name == param })?.type, case .double(let range) = t else { return nil }
            return range
        }
        #expect(range("hue", "degrees") == ColorTransform.hueRange)
        #expect(range("brightness", "amount") == ColorTransform.brightnessRange)
        #expect(range("rgb", "green") == ColorTransform.gainRange)
        #expect(range("levels", "blue-gamma") == ChannelCurves.Levels.gammaRange)
        // just outside the declared range, the kernel refuses too
        #expect(throws: KernelError.self) { try ColorTransform.hue(degrees: ColorTransform.hueRange.upperBound.nextUp) }
        #expect(throws: KernelError.self) { try ChannelCurves.gamma(ChannelCurves.gammaRange.upperBound.nextUp) }
    }

    /// Docs/filters.md's "params (range)" column is what the declarations say.
    @Test func filtersDocShowsTheDeclaredRanges() throws {
        let doc = try String(contentsOfFile: CLI.root + "/Docs/filters.md", encoding: .utf8)
        let registry = BuiltinNodes.makeRegistry()
        guard let table = doc.components(separatedBy: "## Filters\n").dropFirst().first else {
            Issue.record("Docs/filters.md has no '## Filters' section")
            return
        }
        var rows = 0
        for line in table.split(separator: "\n", omittingEmptySubsequences: false).drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, let entry = registry.entry(cells[1]) else { continue }
            rows += 1
            let expected = FilterReference.paramsCell(entry.info)
            #expect(cells[2] == expected, "Docs/filters.md, \(cells[1]): the params column should read «\(expected)»")
        }
        #expect(rows == 14)
    }
}
