import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// concat's memory: the engine hands it the current clip's input and does not push later clips'
/// buffers at it early (they wait, bounded, in their own queues), unless a real deadlock would
/// follow, as when one source feeds two clips.
@Suite struct ConcatMemoryTests {
    /// Runs the graph on a thread of its own and waits for it at most `limit` seconds, counted
    /// from here: a deadlock fails the test instead of hanging the run. (Swift Testing's
    /// `.timeLimit`, used here before, counts from when the test is scheduled; on a 2-core machine
    /// whose two cooperative threads are held by long synchronous tests it fired after 60 s for
    /// graphs that run in well under a second.)
    func run(_ json: String, options: GraphRunner.Options = .init(), limit: Double = 60) throws -> (ValidatedGraph, GraphRunner) {
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        let runner = GraphRunner(graph: g, options: options)
        let done = DispatchSemaphore(value: 0)
        let failure = Lock<(any Error)?>(nil)
        Thread {
            do { try runner.run() } catch { failure.withLock { $0 = error } }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + limit) == .success else {
            throw TimedOut(message: "the graph did not finish within \(limit) s (a deadlock?)")
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return (g, runner)
    }

    struct TimedOut: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    func received(_ runner: GraphRunner, _ id: String) -> Int? {
        runner.statistics.first { $0.id == id }?.buffersIn
    }

    /// Twelve clips, each with its own video and audio source (every source thread runs at once
    /// and fills its queue long before concat reaches its clip): concat holds at most a few
    /// buffers of later clips (before this fix it held nearly all of them: 11 clips × 40 buffers),
    /// and every buffer arrives.
    @Test func manyClipsHoldFewBuffersEarly() throws {
        let n = 12, frames = 20
        var nodes = (0..<n).flatMap { k in
            ["\"v\(k)\": { \"type\": \"testsrc\", \"params\": { \"width\": 64, \"height\": 48, \"rate\": \"25\", \"frames\": \(frames) } }",
             "\"a\(k)\": { \"type\": \"sine\", \"params\": { \"samples\": \(frames * 1920), \"chunk\": 1920 } }"]
        }
        nodes += ["\"cat\": { \"type\": \"concat\" }", "\"ov\": { \"type\": \"nullsink\" }", "\"oa\": { \"type\": \"nullsink\" }"]
        var chains = (0..<n).flatMap { k in
            ["[\"v\(k)\", \"cat.video\(k == 0 ? "" : String(k))\"]", "[\"a\(k)\", \"cat.audio\(k == 0 ? "" : String(k))\"]"]
        }
        chains += ["[\"cat.video\", \"ov\"]", "[\"cat.audio\", \"oa\"]"]
        let (g, runner) = try run("{ \"nodes\": { " + nodes.joined(separator: ", ") + " }, \"chains\": [" + chains.joined(separator: ", ") + "] }")
        let cat = try #require(g.nodes.first { $0.id == "cat" }?.instance as? ConcatNode)
        #expect(received(runner, "ov") == n * frames)
        #expect(received(runner, "oa") == n * frames)
        // a stall of the current clip's source on this loaded machine may let a few through
        #expect(cat.peakEarlyBuffers <= 16, "concat held \(cat.peakEarlyBuffers) buffers (\(cat.peakEarlyBytes) bytes) of later clips at once")
    }

    /// One source feeding clip 0 and clip 1: the source blocks on clip 1's full queue while concat
    /// waits for clip 0, so concat must take clip 1 early; it does (no deadlock), holds exactly
    /// that clip, and sends both.
    @Test func oneSourceFeedingTwoClipsDoesNotDeadlock() throws {
        let (g, runner) = try run("""
        { "nodes": { "s": { "type": "testsrc", "params": { "width": 32, "height": 16, "frames": 30 } },
                     "cat": { "type": "concat" }, "o": { "type": "nullsink" } },
          "chains": [["s", "cat.video"], ["s", "cat.video1"], ["cat.video", "o"]] }
        """)
        let cat = try #require(g.nodes.first { $0.id == "cat" }?.instance as? ConcatNode)
        #expect(received(runner, "o") == 60)
        #expect(cat.peakEarlyBuffers <= 30)
    }

    /// One source feeding both inputs of a stack: the synchroniser wants them in step, and gets
    /// them (no deadlock), every frame once.
    @Test func oneSourceFeedingBothInputsOfAStack() throws {
        let (_, runner) = try run("""
        { "nodes": { "s": { "type": "testsrc", "params": { "width": 32, "height": 16, "frames": 30 } },
                     "st": { "type": "stack" }, "o": { "type": "nullsink" } },
          "chains": [["s", "st.in"], ["s", "st.in1"], ["st", "o"]] }
        """)
        #expect(received(runner, "o") == 30)
    }

    /// The same deadlock through another thread: clip 0 passes a filter on its own thread, so
    /// concat's producer for clip 0 (the filter) waits on its own empty queue while the source is
    /// blocked on clip 1's full queue. Concat follows that chain of waits and takes clip 1 early
    /// within milliseconds; the fallback for chains it cannot follow (a 1 s stall each time) would
    /// take more than the time limit below for these 30 frames.
    @Test func aDeadlockThroughAnotherThreadIsSeenAtOnce() throws {
        var options = GraphRunner.Options()
        options.threadPerNode = true
        let t0 = ContinuousClock.now
        let (g, runner) = try run("""
        { "nodes": { "s": { "type": "testsrc", "params": { "width": 32, "height": 16, "frames": 30 } },
                     "inv": { "type": "invert" }, "cat": { "type": "concat" }, "o": { "type": "nullsink" } },
          "chains": [["s", "inv", "cat.video"], ["s", "cat.video1"], ["cat.video", "o"]] }
        """, options: options)
        let elapsed = ContinuousClock.now - t0
        let cat = try #require(g.nodes.first { $0.id == "cat" }?.instance as? ConcatNode)
        #expect(received(runner, "o") == 60)
        #expect(cat.peakEarlyBuffers <= 30)
        #expect(elapsed < .seconds(10), "took \(elapsed)")
    }
}
