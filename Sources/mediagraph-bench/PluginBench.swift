import Foundation
import MediaGraphCore
import MediaGraphNodes
import MediaGraphPlugins

/// Per-frame cost of a filter behind the plugin interface against the same filter built in:
/// the example plugin's `example.invert` runs the built-in `invert`'s kernel, so the difference
/// is what the C interface costs (frame structs, one indirect call, error buffer).
enum PluginBench {
    /// Emits `count` 1080p rgba frames from the pool (contents as the pool leaves them: the
    /// filter's work does not depend on them).
    final class FrameSource: SourceNode, RegisteredNode {
        static let typeInfo = NodeTypeInfo(name: "bench-frames", doc: "1080p rgba frames", category: .source,
                                           outputs: [PortSpec("out", .video([.rgba]))],
                                           params: [countParam.spec])
        static let countParam = Param<Int>("count", default: 300, doc: "frames")
        let count: Int
        var sent = 0
        let format = VideoFormat(pixelFormat: .rgba, width: 1920, height: 1080)
        init(setup: NodeSetup) throws { count = setup.params[Self.countParam] }
        func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }
        func produce(output: NodeOutput) throws -> Bool {
            guard sent < count else { return false }
            var f = WritableBuffer(frame: format)
            f.pts = Int64(sent)
            sent += 1
            try output.send(consume f)
            return true
        }
    }

    static func time(_ filter: String, frames: Int, registry: NodeRegistry) throws -> Double {
        var spec = GraphSpec()
        spec.add("src", "bench-frames", [("count", .int(frames))])
        spec.add("f", filter)
        spec.add("sink", "nullsink")
        spec.chain("src", "f", "sink")
        let g = try GraphBuilder.build(spec, registry: registry)
        let t0 = Date()
        try GraphRunner(graph: g).run()
        return Date().timeIntervalSince(t0)
    }

    static func run() {
        interfaceCost()
        print("")
        Frei0rMixerBench.run()
    }

    static func interfaceCost() {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let so = dir + "/libExampleFilters.so"
        let catalog = PluginCatalog(registry: BuiltinNodes.makeRegistry())
        catalog.registry.add(FrameSource.self)
        catalog.loadPlugins([so])
        if let f = catalog.failures.first {
            print("plugin bench skipped: \(f) (build it with `swift build -c release`)")
            return
        }
        do {
            let frames = 300
            _ = try time("invert", frames: 20, registry: catalog.registry)
            _ = try time("example.invert", frames: 20, registry: catalog.registry)
            var builtIn = Double.infinity, plugin = Double.infinity
            for _ in 0..<5 {   // alternate, keep the best of each: the least disturbed by other load
                builtIn = min(builtIn, try time("invert", frames: frames, registry: catalog.registry))
                plugin = min(plugin, try time("example.invert", frames: frames, registry: catalog.registry))
            }
            let b = builtIn * 1000 / Double(frames), p = plugin * 1000 / Double(frames)
            print(String(format: "invert on 1920x1080 rgba, %d frames, in place, best of 5:", frames))
            print(String(format: "  built-in invert:              %.3f ms/frame", b))
            print(String(format: "  example.invert via plugin ABI: %.3f ms/frame", p))
            print(String(format: "  plugin overhead: %+.3f ms/frame (%+.1f%%)", p - b, (p - b) / b * 100))
        } catch {
            print("plugin bench failed: \(error)")
        }
    }
}
