import MediaGraphCore
import Testing

/// The audio synchroniser's placement by sample time and its end rules, against sums written
/// out by hand.
@Suite struct AudioSynchronizerTests {
    /// Appends `count` samples of constant `value` (mono) to input `k` at `pts`.
    static func feed(_ s: inout AudioSynchronizer, _ k: Int, pts: Int64?, count: Int, value: Float) {
        let data = [Float](repeating: value, count: count)
        data.withUnsafeBufferPointer { p in s.append(input: k, pts: pts, count: count) { _ in p } }
    }

    /// Mixes everything ready into one array (plain sum).
    static func drain(_ s: inout AudioSynchronizer) -> [Float] {
        var out: [Float] = []
        while case let n = s.ready(), n > 0 {
            var chunk = [Float](repeating: 0, count: n)
            s.consume(n) { _, _, offset, data in for j in 0..<data.count { chunk[offset + j] += data[j] } }
            out += chunk
        }
        return out
    }

    @Test func anInputStartingLaterIsSilentBeforeItsStart() {
        var s = AudioSynchronizer(inputs: 2, channels: 1, end: .longest)
        Self.feed(&s, 0, pts: 0, count: 6, value: 1)
        #expect(s.ready() == 0)  // input 1 has not started: its place is unknown
        Self.feed(&s, 1, pts: 2, count: 6, value: 10)
        // input 1 reaches 8, input 0 reaches 6: 6 samples are ready, the first two without input 1
        #expect(Self.drain(&s) == [1, 1, 11, 11, 11, 11])
        #expect(s.behind == 0)
        s.inputEnded(0)
        #expect(Self.drain(&s) == [10, 10])
        s.inputEnded(1)
        #expect(s.isFinished)
    }

    @Test func shortestStopsAtTheFirstEnd() {
        var s = AudioSynchronizer(inputs: 2, channels: 1, end: .shortest)
        Self.feed(&s, 0, pts: 0, count: 3, value: 1)
        Self.feed(&s, 1, pts: 0, count: 5, value: 2)
        s.inputEnded(0)
        #expect(Self.drain(&s) == [3, 3, 3])
        #expect(s.isFinished)
    }

    @Test func firstFollowsInputZero() {
        var s = AudioSynchronizer(inputs: 2, channels: 1, end: .first)
        Self.feed(&s, 0, pts: 0, count: 4, value: 1)
        Self.feed(&s, 1, pts: 0, count: 2, value: 2)
        s.inputEnded(1)
        #expect(Self.drain(&s) == [3, 3, 1, 1])
        #expect(!s.isFinished)
        s.inputEnded(0)
        #expect(s.isFinished)
    }

    /// Buffers of one input are joined by counting samples: a pts that disagrees after the first
    /// buffer does not move them.
    @Test func samplesAreCountedAfterTheFirstBuffer() {
        var s = AudioSynchronizer(inputs: 1, channels: 1, end: .longest)
        Self.feed(&s, 0, pts: 0, count: 2, value: 1)
        Self.feed(&s, 0, pts: 7, count: 2, value: 2)
        s.inputEnded(0)
        #expect(Self.drain(&s) == [1, 1, 2, 2])
        #expect(s.position == 4)
    }
}
