import Foundation
import MediaGraphCore
import Testing

/// The progress line (`mediagraph run` on a terminal) reads the main source's frame count from a
/// timer thread while the source's thread counts. Under `make test-sanitize` (thread sanitizer)
/// this test shows a data race if that count is a plain variable.
@Suite struct ProgressReadingTests {
    @Test func progressIsReadWhileTheSourceCounts() throws {
        let spec = try GraphFile.parse(text: """
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 200 } }, "k": { "type": "t-sink", "params": { "delay-us": 50 } } },
          "chains": [["s", "k"]] }
        """)
        let runner = GraphRunner(graph: try GraphBuilder.build(spec, registry: testRegistry()))
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? runner.run()
            done.signal()
        }
        thread.start()
        // Poll as the progress line's timer does, until the run ends; counts only grow.
        var seen: [Int] = []
        while done.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
            seen.append(runner.progress.done)
        }
        #expect(seen == seen.sorted(), "the progress count went backwards")
        #expect(runner.progress.done == 200)
        #expect(runner.progress.total == 200)
        #expect(runner.statistics.first { $0.id == "s" }?.buffersOut == 200)
    }

    /// A fan-out (every node on its own thread, behind small queues) while two threads read the statistics
    /// in a tight loop: every counter only grows, and the totals are exact at the end.
    @Test func statisticsAreReadWhileEveryNodeCounts() throws {
        let spec = try GraphFile.parse(text: """
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 300 } }, "a": { "type": "t-sink" }, "b": { "type": "t-sink" } },
          "chains": [["s", "a"], ["s", "b"]] }
        """)
        var options = GraphRunner.Options()
        options.threadPerNode = true
        options.queueCapacity = 2
        let runner = GraphRunner(graph: try GraphBuilder.build(spec, registry: testRegistry()), options: options)
        let finished = StopFlag()
        let backwards = Lock<[String]>([])
        let readers = DispatchGroup()
        for _ in 0..<2 {
            readers.enter()
            Thread {
                var last: [String: (Int, Int, UInt64)] = [:]
                while !finished.isSet {
                    for s in runner.statistics {
                        let now = (s.buffersIn, s.buffersOut, s.busyNanos &+ s.inputWaitNanos &+ s.queueFullNanos)
                        if let before = last[s.id], now.0 < before.0 || now.1 < before.1 {
                            backwards.withLock { $0.append("\(s.id): \(before) then \(now)") }
                        }
                        last[s.id] = now
                    }
                    _ = runner.progress
                }
                readers.leave()
            }.start()
        }
        try runner.run()
        finished.set()
        readers.wait()
        #expect(backwards.withLock { $0 } == [])
        let stats = Dictionary(uniqueKeysWithValues: runner.statistics.map { ($0.id, $0) })
        #expect(stats["s"]?.buffersOut == 300)
        #expect(stats["a"]?.buffersIn == 300 && stats["b"]?.buffersIn == 300)
        #expect(stats.values.allSatisfy { $0.ownThread })
    }
}
