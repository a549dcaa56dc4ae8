import MediaGraphCore

/// Where a muxer with `end: shortest` ends its file (ffmpeg's `-shortest`): at the end time of the
/// first input to end. The other inputs' packets from that decode time on are left out, cut in
/// decode order so that every packet kept still has the packets it refers to.
struct ShortestCut {
    /// Per input, the end (seconds) of its latest sample so far: pts + duration.
    private var streamEnds: [Double]
    /// Where the file ends, once an input with samples has ended, and which input that was.
    private(set) var cut: (seconds: Double, input: Int)?
    /// Per input, packets left out because they start at or after the cut.
    private(set) var leftOut: [Int]

    init(inputs: Int) {
        streamEnds = Array(repeating: -.infinity, count: inputs)
        leftOut = Array(repeating: 0, count: inputs)
    }

    /// Whether a packet of `input` decoding at `dts` (seconds) goes into the file; notes its end.
    mutating func keeps(input: Int, dts: Double, end: Double) -> Bool {
        if let cut, dts >= cut.seconds {
            leftOut[input] += 1
            return false
        }
        streamEnds[input] = max(streamEnds[input], end)
        return true
    }

    /// Input `input` has ended: the file ends where it ends, unless an input ended earlier; true
    /// when this moved the cut. An input without samples does not end the file (it would leave it
    /// empty).
    mutating func ended(_ input: Int) -> Bool {
        let end = streamEnds[input]
        guard end.isFinite, cut == nil || end < cut!.seconds else { return false }
        cut = (end, input)
        return true
    }

    /// `count` packets of `input` already taken were left out after all (still queued in the muxer).
    mutating func noteLeftOut(_ count: Int, input: Int) { leftOut[input] += count }
}
