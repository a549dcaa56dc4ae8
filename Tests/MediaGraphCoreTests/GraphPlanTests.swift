import Foundation
import MediaGraphCore
import Synchronization
import Testing

/// Counts what the engine does to the nodes of `PlanProbeSource` and `PlanProbeSink`.
final class PlanProbes: Sendable {
    let created = Atomic<Int>(0)
    let headersRead = Atomic<Int>(0)
    let started = Atomic<Int>(0)
}

/// A source whose input can be read once: it counts creations and header reads.
final class PlanProbeSource: SourceNode, RegisteredNode, OnceReadableInput {
    /// The probes new instances count into; a test puts a fresh one here.
    static var probes: PlanProbes {
        get { probesSlot.withLock { $0 } }
        set { probesSlot.withLock { $0 = newValue } }
    }
    private static let probesSlot = Lock(PlanProbes())
    static let typeInfo = NodeTypeInfo(name: "t-once", doc: "reads a header once", category: .source,
                                       outputs: [PortSpec("out", .video([.gray]))],
                                       params: [.int("frames", default: 3, doc: "")])
    let frames: Int
    var width = 2, index = 0
    let probes = PlanProbeSource.probes
    init(setup: NodeSetup) throws {
        frames = setup.params.int("frames", default: 3)
        probes.created.add(1, ordering: .relaxed)
    }
    func readHeader() throws {
        probes.headersRead.add(1, ordering: .relaxed)
        width = 4
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(VideoFormat(pixelFormat: .gray, width: width, height: 2))] }
    func produce(output: NodeOutput) throws -> Bool {
        guard index < frames else { return false }
        index += 1
        try output.send(WritableBuffer(frame: VideoFormat(pixelFormat: .gray, width: width, height: 2)))
        return true
    }
}

/// A sink with an output path that writes (one byte per buffer) only once started.
final class PlanProbeSink: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-file", doc: "writes a file", category: .sink, inputs: [PortSpec("in", .any)],
                                       params: [.path("path", role: .output, required: true, doc: "")])
    let path: String
    var count = 0
    let probes = PlanProbeSource.probes
    init(setup: NodeSetup) throws {
        path = setup.params.path("path")!
        probes.created.add(1, ordering: .relaxed)
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func start() throws {
        probes.started.add(1, ordering: .relaxed)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws { count += 1 }
    func finish(output: NodeOutput) throws {
        try Data(repeating: 7, count: count).write(to: URL(fileURLWithPath: path))
    }
}

/// A source with a family of outputs named once it exists, as a file source's streams are.
final class PlanStreams: SourceNode, RegisteredNode, DynamicOutputs {
    static let typeInfo = NodeTypeInfo(name: "t-streams", doc: "two streams", category: .source,
                                       outputs: [PortSpec("video", .video([.gray]), repeatable: true)])
    init(setup: NodeSetup) throws {}
    var outputNames: [String] { ["video", "video1"] }
    func outputIndex(named reference: String) throws -> Int {
        guard let k = outputNames.firstIndex(of: reference) else { throw NodeFailure("no stream '\(reference)'; streams: video, video1") }
        return k
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        [.video(VideoFormat(pixelFormat: .gray, width: 2, height: 2)), .video(VideoFormat(pixelFormat: .gray, width: 4, height: 4))]
    }
    func produce(output: NodeOutput) throws -> Bool { false }
}

/// Takes rgba only, so that gray must be converted before it.
final class RGBASink: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-rgba", doc: "takes rgba", category: .sink, inputs: [PortSpec("in", .video([.rgba]))])
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}

/// Turns any raw video into rgba (formats only: enough for negotiation).
final class ToRGBA: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-torgba", doc: "to rgba", category: .converter,
                                       inputs: [PortSpec("in", .anyVideo)], outputs: [PortSpec("out", .video([.rgba]))])
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard case .video(var v) = inputs[0].format else { throw NodeFailure("raw video only") }
        v.pixelFormat = .rgba
        return [.video(v)]
    }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}

func requireSendable<T: Sendable>(_: T) {}

/// Validation as a pure plan, instantiation as a second step that can run a plan more than once.
@Suite(.serialized) struct GraphPlanTests {
    func registry() -> NodeRegistry {
        let r = testRegistry()
        r.add(PlanProbeSource.self)
        r.add(PlanProbeSink.self)
        r.add(PlanStreams.self)
        r.add(RGBASink.self)
        return r
    }

    func plan(_ json: String, registry r: NodeRegistry? = nil) throws -> GraphPlan {
        try GraphPlan(validating: try GraphFile.parse(text: json), registry: r ?? registry())
    }

    @Test func planningCreatesNoNodeAndWritesNothing() throws {
        let probes = PlanProbes()
        PlanProbeSource.probes = probes
        let dir = NSTemporaryDirectory() + "plan-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try plan("""
        { "nodes": { "s": { "type": "t-once" }, "k": { "type": "t-file", "params": { "path": "\(dir)/out/o.bin" } } },
          "chains": [["s", "k"]] }
        """)
        #expect(probes.created.load(ordering: .relaxed) == 0, "validation created nodes")
        #expect(!FileManager.default.fileExists(atPath: dir), "validation wrote to the file system")
        #expect(p.nodes.map(\.id) == ["s", "k"])
        #expect(p.nodes[0].params.int("frames") == 3, "defaults are filled in")
        #expect(p.order == [0, 1])
        #expect(p.edges.map(\.input) == ["in"])
        requireSendable(p)   // a plan can be handed to another thread and instantiated there

        // shown (validate, dot): nodes exist, the once-readable input is left unread, nothing written
        let shown = try p.instantiate(for: .inspect)
        #expect(probes.created.load(ordering: .relaxed) == 2)
        #expect(probes.headersRead.load(ordering: .relaxed) == 0)
        #expect(shown.connections.first?.format.video?.width == 2, "provisional format")
        #expect(!FileManager.default.fileExists(atPath: dir))

        // to run: the header is read before negotiation, so the real format reaches the sink
        let g = try p.instantiate()
        #expect(probes.headersRead.load(ordering: .relaxed) == 1)
        #expect(g.connections.first?.format.video?.width == 4)
        try GraphRunner(graph: g).run()
        #expect(probes.started.load(ordering: .relaxed) == 1)
        #expect(FileManager.default.contents(atPath: "\(dir)/out/o.bin") == Data(repeating: 7, count: 3))
    }

    @Test func anInvalidGraphIsRefusedBeforeAnyNodeExists() throws {
        let probes = PlanProbes()
        PlanProbeSource.probes = probes
        do {
            _ = try plan("""
            { "nodes": { "s": { "type": "t-once" }, "a": { "type": "t-add" }, "b": { "type": "t-add" },
                         "k": { "type": "t-file", "params": { "path": "o.bin" } } },
              "chains": [["a", "b", "a"], ["b", "k"]] }
            """)
            Issue.record("the cycle should have been refused")
        } catch let e as GraphValidationError {
            #expect(e.errors.map(\.message) == ["the graph has a cycle 'a' → 'b' → 'a'; a graph must flow one way"])
        }
        #expect(probes.created.load(ordering: .relaxed) == 0)
    }

    @Test func onePlanInstantiatedTwiceRunsTwiceIndependently() throws {
        // (no t-add: SchedulerTests count its writes while suites run in parallel)
        let p = try plan("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 30 } }, "k": { "type": "t-sink" } },
          "chains": [["s", "k"]] }
        """)
        let stops = [StopFlag(), StopFlag()]
        let graphs = try stops.map { try p.instantiate(stop: $0) }
        #expect(graphs[0].nodes[0].instance !== graphs[1].nodes[0].instance, "each instantiation creates its own nodes")
        // both run at once: nothing is shared between the two graphs
        let errors = Lock<[String]>([])
        let runners = (0..<2).map { GraphRunner(graph: graphs[$0], stop: stops[$0]) }
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            do { try runners[k].run() } catch { errors.withLock { $0.append("\(error)") } }
        }
        #expect(errors.withLock { $0 } == [])
        func sink(_ g: ValidatedGraph) -> Collector? { g.nodes.first { $0.id == "k" }?.instance as? Collector }
        for k in 0..<2 {
            #expect(sink(graphs[k])?.values == (0..<30).map { UInt8($0) }, "run \(k)")
            #expect(sink(graphs[k])?.finished == true)
        }
        // and a third time, after the others have finished
        let third = StopFlag()
        let g3 = try p.instantiate(stop: third)
        try GraphRunner(graph: g3, stop: third).run()
        #expect(sink(g3)?.values.count == 30)
    }

    @Test func streamReferencesStayReferencesUntilTheNodeExists() throws {
        let p = try plan("""
        { "nodes": { "in": { "type": "t-streams" }, "a": { "type": "t-sink" }, "b": { "type": "t-sink" } },
          "chains": [["in.video1", "a"], ["in.video7", "b"]] }
        """)
        #expect(p.edges.map(\.output) == [.named("video1"), .named("video7")])
        do {
            _ = try p.instantiate(for: .inspect)
            Issue.record("video7 does not exist")
        } catch let e as GraphValidationError {
            #expect(e.errors.map(\.message) == ["node 'in' (t-streams): no stream 'video7'; streams: video, video1"])
        }
    }

    @Test func convertersComeFromTheRegistryOnly() throws {
        let json = """
        { "nodes": { "s": { "type": "t-src" }, "k": { "type": "t-rgba" } }, "chains": [["s", "k"]] }
        """
        let r = registry()
        do {
            _ = try plan(json, registry: r).instantiate(for: .inspect)
            Issue.record("no adapter is registered")
        } catch let e as GraphValidationError {
            #expect(e.errors.map(\.message) == ["edge 's' → 'k.in': formats cannot meet: 's' produces \(VideoFormat(pixelFormat: .gray, width: 8, height: 8)), input 'in' of 'k' (t-rgba) accepts video/raw rgba"])
        }
        r.add(ToRGBA.self)
        r.addAdapter(FormatAdapter(nodeType: "t-torgba", label: "torgba") { format, caps, _ in
            if case .video = format, case .video(let wanted) = caps, wanted.contains(.rgba) { return [:] }
            return nil
        })
        let g = try plan(json, registry: r).instantiate(for: .inspect)
        #expect(g.notes == ["inserted 'auto_torgba_k_in' (t-torgba): gray → rgba before 'k.in'"])
        #expect(g.nodes.map(\.id) == ["s", "auto_torgba_k_in", "k"])
    }
}
