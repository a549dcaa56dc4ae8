import Foundation
import MediaGraphCore
import Testing

/// `--stats` shows each node's own work: time spent in nodes it calls inline and waiting for a
/// full queue is not its own (a source in front of a slow encoder showed the encoder's time).
@Suite struct BusyTimeTests {
    @Test func busyTimeIsTheNodesOwnWork() throws {
        // the sink sleeps 2 ms a buffer on its own thread; the source and the inline filter
        // before it wait for its one-buffer queue, 200 ms in all
        let spec = try GraphFile.parse(text: """
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 100 } }, "a": { "type": "t-add" },
                     "k": { "type": "t-sink", "params": { "delay-us": 2000 } } },
          "chains": [["s", "a", "k"]] }
        """)
        var options = GraphRunner.Options()
        options.queueCapacity = 1
        let runner = GraphRunner(graph: try GraphBuilder.build(spec, registry: testRegistry()), options: options)
        try runner.run()
        let busy = Dictionary(uniqueKeysWithValues: runner.statistics.map { ($0.id, Double($0.busyNanos) / 1e6) })
        let sink = try #require(busy["k"]), source = try #require(busy["s"]), filter = try #require(busy["a"])
        #expect(sink >= 190, "the sink sleeps 2 ms a buffer: \(busy)")
        // each does a few microseconds of work per tiny frame; the waits (~200 ms) are not theirs
        #expect(source < 40 && filter < 40, "\(busy)")
        let queueFull = runner.statistics.first { $0.id == "k" }?.queueFullNanos ?? 0
        #expect(Double(queueFull) / 1e6 >= 100, "the waits are the queue's: \(runner.statistics)")
    }
}
