import MediaGraphCore
import Testing

/// The engine's buffer and scheduling contracts, on small test nodes.
@Suite(.serialized) struct SchedulerTests {
    func build(_ json: String) throws -> (ValidatedGraph, StopFlag) {
        let stop = StopFlag()
        let spec = try GraphFile.parse(text: json)
        return (try GraphBuilder.build(spec, registry: testRegistry(), stop: stop), stop)
    }

    func sink(_ g: ValidatedGraph, _ id: String) -> Collector {
        g.nodes.first { $0.id == id }!.instance as! Collector
    }

    @Test func linearChainWritesInPlaceWithoutCopies() throws {
        AddOne.counter = WriteCounter()
        let (g, _) = try build("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 50 } }, "a": { "type": "t-add" }, "b": { "type": "t-add" },
                     "c": { "type": "t-add" }, "k": { "type": "t-sink" } },
          "chains": [["s", "a", "b", "c", "k"]] }
        """)
        try GraphRunner(graph: g).run()
        #expect(sink(g, "k").values == (0..<50).map { UInt8($0 + 3) })
        #expect(AddOne.counter.inPlace.load(ordering: .relaxed) == 150)
        #expect(AddOne.counter.copies.load(ordering: .relaxed) == 0)
    }

    @Test func fanOutGivesEachBranchItsOwnResultAndKeepsTheInput() throws {
        AddOne.counter = WriteCounter()
        let (g, _) = try build("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 40 } }, "a": { "type": "t-add" }, "b": { "type": "t-add" },
                     "ka": { "type": "t-sink" }, "kb": { "type": "t-sink" }, "raw": { "type": "t-sink", "params": { "delay-us": 100 } } },
          "chains": [["s", "a", "ka"], ["s", "b", "kb"], ["s", "raw"]] }
        """)
        try GraphRunner(graph: g).run()
        let expected = (0..<40).map { UInt8($0) }
        #expect(sink(g, "raw").values == expected, "the shared input was modified by a branch")
        #expect(sink(g, "ka").values == expected.map { $0 + 1 })
        #expect(sink(g, "kb").values == expected.map { $0 + 1 })
        // both filters found the frame shared at least sometimes: copies happened, and only then
        #expect(AddOne.counter.copies.load(ordering: .relaxed) + AddOne.counter.inPlace.load(ordering: .relaxed) == 80)
    }

    @Test func firstErrorStopsTheGraphAndNamesTheNode() throws {
        let (g, _) = try build("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 1000 } }, "bad": { "type": "t-add", "params": { "fail-at": 7 } },
                     "k": { "type": "t-sink" } },
          "chains": [["s", "bad", "k"]] }
        """)
        do {
            try GraphRunner(graph: g).run()
            Issue.record("the run should have failed")
        } catch let e as GraphRunError {
            #expect(e.description == "node 'bad' (t-add): failing on purpose at frame 7")
        }
        #expect(sink(g, "k").aborted)
        #expect(!sink(g, "k").finished)
        #expect(sink(g, "k").values.count <= 7)
    }

    @Test func boundedQueuesKeepMemoryFlat() throws {
        // a geometry used by no other test, so its pool counts only this run
        let (g, _) = try build("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 300, "width": 13, "height": 7 } },
                     "k": { "type": "t-sink", "params": { "delay-us": 200 } } },
          "chains": [["s", "k"]] }
        """)
        var options = GraphRunner.Options()
        options.queueCapacity = 4
        try GraphRunner(graph: g, options: options).run()
        #expect(sink(g, "k").values.count == 300)
        let pool = FramePool.shared(for: VideoFormat(pixelFormat: .gray, width: 13, height: 7))
        #expect(pool.bufferCount == 300)
        #expect(pool.allocationCount <= 4 + 3, "frames alive at once: \(pool.allocationCount)")
    }

    @Test func stopFlagEndsSourcesAndFinalizesSinks() throws {
        let (g, stop) = try build("""
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 100000000 } }, "k": { "type": "t-sink", "params": { "delay-us": 50 } } },
          "chains": [["s", "k"]] }
        """)
        let runner = GraphRunner(graph: g, stop: stop)
        Thread.detachNewThread { usleep(200_000); stop.set() }
        try runner.run()
        #expect(sink(g, "k").finished)
        #expect(sink(g, "k").values.count > 0)
    }

    @Test func validationReportsEveryProblemTogether() throws {
        do {
            _ = try build("""
            { "nodes": { "s": { "type": "t-src", "params": { "frams": 3 } }, "x": { "type": "t-ad" }, "k": { "type": "t-sink" } },
              "chains": [["s", "x", "k"], ["k", "s"]] }
            """)
            Issue.record("validation should fail")
        } catch let e as GraphValidationError {
            let text = e.description
            #expect(text == """
            1:59: error: node 's' (t-src): unknown param 'frams'; did you mean 'frames'?
            1:81: error: node 'x': unknown node type 't-ad'; did you mean 't-add'?
            2:37: error: node 'k' (t-sink) has no outputs, so it cannot feed 's'
            """)
        }
    }

    @Test func cyclesAreFound() throws {
        do {
            _ = try build("""
            { "nodes": { "s": { "type": "t-src" }, "a": { "type": "t-add" }, "b": { "type": "t-add" } },
              "chains": [["a", "b", "a"]] }
            """)
            Issue.record("validation should fail")
        } catch let e as GraphValidationError {
            #expect(e.description.contains("error: the graph has a cycle 'a' → 'b' → 'a'; a graph must flow one way"))
        }
    }
}

import Foundation
