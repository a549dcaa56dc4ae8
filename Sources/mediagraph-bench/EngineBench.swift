import Foundation
import MediaGraphCore
import MediaGraphNodes

/// Per-buffer overhead of the engine: a chain of pass-through nodes carrying many small buffers,
/// as the engine schedules it by default (one thread) and with a thread boundary at every node.
enum EngineBench {
    /// Emits `count` tiny byte buffers.
    final class TinySource: SourceNode, RegisteredNode {
        static let typeInfo = NodeTypeInfo(name: "bench-tiny-src", doc: "tiny buffers", category: .source,
                                           outputs: [PortSpec("out", .any)], params: [countParam.spec])
        static let countParam = Param<Int>("count", default: 100_000, doc: "buffers")
        let count: Int
        var sent = 0
        let format = MediaFormat.encodedAudio(EncodedAudioFormat(codec: .aac, sampleRate: 48000, channels: 2))
        init(setup: NodeSetup) throws { count = setup.params[Self.countParam] }
        func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [format] }
        func produce(output: NodeOutput) throws -> Bool {
            guard sent < count else { return false }
            let b = SampleBuffer(bytes: [], format: format, pts: Int64(sent), duration: 1, timeBase: Rational(1, 48000))
            sent += 1
            try output.send(consume b)
            return true
        }
    }

    /// Passes every buffer on unchanged.
    final class PassThrough: RegisteredNode {
        static let typeInfo = NodeTypeInfo(name: "bench-pass", doc: "pass-through", category: .filter,
                                           inputs: [PortSpec("in", .any)], outputs: [PortSpec("out", .any)])
        init(setup: NodeSetup) throws {}
        func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }
        func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws { try output.send(buffer) }
    }

    static func timeChain(count: Int, passes: Int, threadPerNode: Bool) throws -> Double {
        let registry = BuiltinNodes.makeRegistry()
        registry.add(TinySource.self)
        registry.add(PassThrough.self)
        var spec = GraphSpec()
        spec.add("src", "bench-tiny-src", [("count", .int(count))])
        var chain = ["src"]
        for k in 0..<passes { chain.append(spec.add("p\(k)", "bench-pass")) }
        chain.append(spec.add("sink", "nullsink"))
        for k in 1..<chain.count { spec.edges.append(.init(from: PortRef(node: chain[k - 1]), to: PortRef(node: chain[k]))) }
        let graph = try GraphBuilder.build(spec, registry: registry)
        var options = GraphRunner.Options()
        options.threadPerNode = threadPerNode
        let runner = GraphRunner(graph: graph, options: options)
        let t0 = Date()
        try runner.run()
        return Date().timeIntervalSince(t0)
    }

    static func run() {
        let count = 100_000, passes = 10, edges = passes + 1
        do {
            _ = try timeChain(count: 1000, passes: passes, threadPerNode: false)
            let inline = try timeChain(count: count, passes: passes, threadPerNode: false)
            let threaded = try timeChain(count: count, passes: passes, threadPerNode: true)
            print(String(format: "chain of %d pass-through nodes, %d buffers (%d edges):", passes, count, edges))
            print(String(format: "  default scheduling (one thread, direct calls): %.1f ns per buffer per edge (%.3f s)", inline * 1e9 / Double(count * edges), inline))
            print(String(format: "  a thread boundary at every node:              %.1f ns per buffer per edge (%.3f s)", threaded * 1e9 / Double(count * edges), threaded))

            let registry = BuiltinNodes.makeRegistry()
            // Graphs/testsrc-to-null.json's graph, built here so the bench runs from any directory
            var spec = GraphSpec()
            spec.add("src", "testsrc", [("width", .int(1920)), ("height", .int(1080)), ("frames", .int(600))])
            spec.add("sink", "nullsink")
            spec.chain("src", "sink")
            let g = try GraphBuilder.build(spec, registry: registry)
            let t0 = Date()
            try GraphRunner(graph: g).run()
            let dt = Date().timeIntervalSince(t0)
            print(String(format: "1080p testsrc -> nullsink: %.0f frames/s (600 frames in %.3f s)", 600 / dt, dt))
        } catch {
            print("engine bench failed: \(error)")
        }
    }
}
