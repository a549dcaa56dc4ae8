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
}
