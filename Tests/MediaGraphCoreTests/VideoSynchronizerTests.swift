import MediaGraphCore
import Testing

/// The video synchroniser's choices, checked against the rule written in Docs/multi-input.md:
/// one output per frame of the first input; input k shows its last frame with pts + offset ≤ t.
@Suite struct VideoSynchronizerTests {
    /// A 2x2 gray frame whose first byte is `index`, at `pts` of 1/`rate` s.
    static func frame(_ index: Int, rate: Int64) -> SampleBuffer {
        var w = WritableBuffer(frame: VideoFormat(pixelFormat: .gray, width: 2, height: 2, frameRate: Rational(rate, 1)), timeBase: Rational(1, rate))
        w.planes!.data(0)[0] = UInt8(truncatingIfNeeded: index)
        w.pts = Int64(index)
        w.duration = 1
        return w.freeze()
    }

    static func format(_ rate: Int64) -> VideoFormat { VideoFormat(pixelFormat: .gray, width: 2, height: 2, frameRate: Rational(rate, 1)) }

    /// What one output time showed: its time (in seconds × 600) and each input's frame index.
    struct Shown: Equatable, CustomStringConvertible {
        var time: Int64
        var frames: [Int?]
        var description: String { "t=\(time)/600 \(frames.map { $0.map(String.init) ?? "-" })" }
    }

    /// Runs the synchroniser as the engine does: frames come from the input it prefers (any when
    /// it prefers none, the one furthest behind first), until every input has ended.
    static func run(rates: [Int64], counts: [Int], policy: SyncPolicy, maxHeld: inout Int) throws -> [Shown] {
        let sync = try VideoSynchronizer(formats: rates.map(format), names: rates.indices.map { $0 == 0 ? "in" : "in\($0)" }, policy: policy)
        var next = Array(repeating: 0, count: rates.count)
        var ended = Array(repeating: false, count: rates.count)
        var shown: [Shown] = []
        #expect(sync.timeBase.num == 1)
        let scale = sync.timeBase.den
        let emit: (borrowing SyncedFrames) throws -> Void = { s in
            let frames = (0..<s.count).map { k in s.planes(k).map { Int($0.data(0)[0]) } }
            shown.append(Shown(time: s.pts * 600 / scale, frames: frames))
        }
        var fed = Array(repeating: 0, count: rates.count)
        while ended.contains(false) {
            let k = sync.preferredInput() ?? (0..<rates.count).filter { !ended[$0] }.min { fed[$0] < fed[$1] }!
            if next[k] < counts[k] {
                try sync.add(frame(next[k], rate: rates[k]), input: k, emit: emit)
                next[k] += 1
                fed[k] += 1
                maxHeld = max(maxHeld, sync.heldCounts[1...].max() ?? 0)
            } else {
                ended[k] = true
                try sync.end(input: k, emit: emit)
            }
        }
        try sync.finish(emit: emit)
        return shown
    }

    @Test func inputsAt30And25And24FpsWithOffsetsTakeTheFrameTheRuleGives() throws {
        // offsets 0, 0.1 s, 0.25 s; 30 frames at 30 fps, 30 at 25 fps, 30 at 24 fps
        let policy = SyncPolicy(end: .first, offsets: [0, 0.1, 0.25], ended: .hold)
        var held = 0
        let shown = try Self.run(rates: [30, 25, 24], counts: [30, 30, 30], policy: policy, maxHeld: &held)
        var expected: [Shown] = []
        for k in 0..<30 {
            // t = k/30; input 1: last j with j/25 + 1/10 ≤ k/30, i.e. 6j + 15 ≤ 5k (× 150);
            // input 2: last j with j/24 + 1/4 ≤ k/30, i.e. 5j + 30 ≤ 4k (× 120)
            let j1 = 5 * k - 15 >= 0 ? min(29, (5 * k - 15) / 6) : nil
            let j2 = 4 * k - 30 >= 0 ? min(29, (4 * k - 30) / 5) : nil
            expected.append(Shown(time: Int64(k * 20), frames: [k, j1, j2]))
        }
        #expect(shown == expected)
    }

    @Test func endShortestStopsAtTheEndOfTheShortestInput() throws {
        var held = 0
        // in1: 10 frames at 25 fps end at 0.4 s; in (30 fps) frames at k/30 < 0.4: k ≤ 11
        let shown = try Self.run(rates: [30, 25], counts: [30, 10], policy: SyncPolicy(end: .shortest), maxHeld: &held)
        #expect(shown.count == 12)
        #expect(shown.last == Shown(time: 220, frames: [11, 9]))
    }

    @Test func endLongestGoesOnAtTheFirstInputsFrameDurationAndHoldsOrHides() throws {
        var held = 0
        // in: 5 frames at 25 fps (0 … 0.2 s); in1: 10 frames at 25 fps (0 … 0.4 s)
        let hold = try Self.run(rates: [25, 25], counts: [5, 10], policy: SyncPolicy(end: .longest, ended: .hold), maxHeld: &held)
        #expect(hold == (0..<10).map { Shown(time: Int64($0 * 24), frames: [min($0, 4), $0]) })
        let hide = try Self.run(rates: [25, 25], counts: [5, 10], policy: SyncPolicy(end: .longest, ended: .hide), maxHeld: &held)
        #expect(hide == (0..<10).map { Shown(time: Int64($0 * 24), frames: [$0 < 5 ? $0 : nil, $0]) })
    }

    @Test func endFirstFollowsTheFirstInputAndHidesAnEndedOne() throws {
        var held = 0
        let shown = try Self.run(rates: [25, 25], counts: [8, 3], policy: SyncPolicy(end: .first, ended: .hide), maxHeld: &held)
        #expect(shown == (0..<8).map { Shown(time: Int64($0 * 24), frames: [$0, $0 < 3 ? $0 : nil]) })
    }

    @Test func memoryStaysBoundedWhenOneInputIsMuchFaster() throws {
        var held = 0
        // in1 at 30 fps against in at 1 fps: the engine is asked for in1 only as far as needed
        let shown = try Self.run(rates: [1, 30], counts: [5, 150], policy: SyncPolicy(end: .first), maxHeld: &held)
        #expect(shown.map(\.frames) == (0..<5).map { [$0, $0 * 30] })
        #expect(held <= 1, "frames of in1 held ahead of the output")
    }

    @Test func takeFirstWritesTheFirstInputsFrameInPlace() throws {
        let sync = try VideoSynchronizer(formats: [Self.format(25), Self.format(25)], names: ["in", "in1"], policy: SyncPolicy())
        var original: UnsafeMutablePointer<UInt8>?
        var written: [UnsafeMutablePointer<UInt8>] = []
        let emit: (borrowing SyncedFrames) throws -> Void = { s in
            #expect(s.buffer(1) != nil)
            guard let w = s.takeFirst() else { Issue.record("no first frame"); return }
            #expect(s.buffer(0) == nil, "taken")
            written.append(w.planes!.data(0))
            w.planes!.data(0)[1] = 7
        }
        var first: SampleBuffer? = Self.frame(0, rate: 25)
        original = first!.planes!.data(0)
        try sync.add(first.take()!, input: 0, emit: emit)
        try sync.add(Self.frame(0, rate: 25), input: 1, emit: emit)
        try sync.add(Self.frame(1, rate: 25), input: 1, emit: emit)
        try sync.add(Self.frame(1, rate: 25), input: 0, emit: emit)
        try sync.finish(emit: emit)
        #expect(written.count == 2)
        #expect(written.first == original, "the first input's frame was copied instead of written in place")
    }

    @Test func badOffsetIsAnErrorNamingTheInput() {
        #expect(throws: NodeFailure.self) {
            _ = try VideoSynchronizer(formats: [Self.format(25), Self.format(25)], names: ["in", "in1"], policy: SyncPolicy(offsets: [0, .infinity]))
        }
    }
}

extension VideoSynchronizerTests {
    @Test func longestWithAnOffsetSecondInputEndsWhenItDoes() throws {
        var held = 0
        // in: 50 frames (0 … 2 s); in1: 50 frames shifted by 1 s (1 … 3 s): 75 outputs at 1/25 s
        let shown = try Self.run(rates: [25, 25], counts: [50, 50], policy: SyncPolicy(end: .longest, offsets: [0, 1]), maxHeld: &held)
        #expect(shown.count == 75)
        #expect(shown.last == Shown(time: 74 * 24, frames: [49, 49]))
    }
}

extension VideoSynchronizerTests {
    @Test func inputsAreOrderedByPortNumberNotByEdgeOrder() {
        let info = NodeTypeInfo(name: "t", doc: "", category: .filter,
                                inputs: [PortSpec("in", .anyVideo, repeatable: true), PortSpec("mask", .anyVideo)])
        let ports = ["in10", "mask", "in2", "in", "in1"]
        #expect(SyncInputOrder.order(of: ports, in: info).map { ports[$0] } == ["in", "in1", "in2", "in10", "mask"])
    }
}
