import MediaGraphCore
import MediaGraphMP4

/// The inputs of a sink that writes through an `MP4TrackWriter` (`mp4` and `hls`: an `MP4Muxer`;
/// `dash`: a `DASHWriter`): one track per input, packets rescaled to the track's timescale,
/// inputs read in decode-time order, and `end: shortest`. The sink makes the writer; this feeds it.
final class MP4Feed {
    let end: SyncEnd
    var names: [String]
    private(set) var formats: [MediaFormat] = []
    private(set) var muxer: (any MP4TrackWriter)?
    private var tracks: [MP4TrackID] = []
    private var timescales: [Int64] = []
    /// Last dts seen per input (seconds), to read inputs in decode order.
    private var lastDTS: [Double] = []
    private var ended: [Bool] = []
    /// Packets received per input (for error messages).
    private var packets: [Int] = []
    private var shortest = ShortestCut(inputs: 0)

    init(end: SyncEnd, names: [String]) {
        self.end = end
        self.names = names
    }

    static let endParam = Param<SyncEnd>("end", choices: [.longest, .shortest], default: .longest,
                                         doc: "when the file ends: longest (every input has ended), shortest (where the first input to end ends; the others' later packets are left out, ffmpeg's -shortest)")

    func configure(inputs: [InputFormat]) {
        formats = inputs.map(\.format)
        names = inputs.map(\.port)
        lastDTS = Array(repeating: -.infinity, count: inputs.count)
        ended = Array(repeating: false, count: inputs.count)
        packets = Array(repeating: 0, count: inputs.count)
        shortest = ShortestCut(inputs: inputs.count)
    }

    /// Adds a track per input to `m`, which then takes the packets.
    func attach(_ m: any MP4TrackWriter) throws {
        for f in formats {
            let id = try m.addTrack(for: f, configuration: nil)
            tracks.append(id)
            timescales.append(m.timescale(of: id) ?? 90000)
        }
        muxer = m
    }

    /// With `end: shortest` the inputs are read strictly in decode order, so that when one ends
    /// the others have not been read far past it (their packets after the cut are left out, and
    /// those already written stay). Otherwise a full queue is taken early (it costs little).
    var waitsForPreferredInput: Bool { end == .shortest }

    /// The input whose last sample is earliest in decode time (an input without samples first).
    func preferredInput() -> Int? { DecodeOrder.earliest(lastDTS: lastDTS, ended: ended) }

    func process(_ buffer: consuming SampleBuffer, input: Int) throws {
        guard let muxer else { return }
        let tb = buffer.timeBase, ts = timescales[input]
        let number = packets[input]
        packets[input] += 1
        // Timestamps come from files (an IVF pts is any 64-bit value): rescale with a 128-bit
        // intermediate and refuse what does not fit, instead of overflowing.
        func ticks(_ v: Int64, _ what: String) throws -> Int64 {
            guard v != SampleBuffer.noTime else {
                throw NodeFailure("input '\(names[input])': packet \(number) has no \(what)")
            }
            guard let t = MediaTime.rescale(v, timeBase: tb, to: ts) else {
                throw NodeFailure("input '\(names[input])': packet \(number): \(what) \(v) in time base \(tb) does not fit 64 bits in the track timescale \(ts)")
            }
            return t
        }
        if end == .shortest {
            let seconds = tb.doubleValue
            guard shortest.keeps(input: input, dts: Double(buffer.dts) * seconds,
                                 end: Double(buffer.pts &+ max(0, buffer.duration)) * seconds) else {
                try inputEnded(input)
                return
            }
        }
        let sample = MP4Sample(data: buffer.packetBytes, pts: try ticks(buffer.pts, "pts"), dts: try ticks(buffer.dts, "dts"),
                               duration: try ticks(buffer.duration, "duration"),
                               isSync: buffer.flags.contains(.keyFrame), configuration: buffer.codecConfiguration)
        lastDTS[input] = Double(buffer.dts) * tb.doubleValue
        do { try muxer.append(sample, to: tracks[input]) } catch { throw NodeFailure("input '\(names[input])': \(error)") }
    }

    func inputEnded(_ input: Int) throws {
        guard !ended[input] else { return }
        ended[input] = true
        try muxer?.finishTrack(tracks[input])
        guard end == .shortest, let muxer, shortest.ended(input), let cut = shortest.cut else { return }
        // inputs read ahead of the cut (from one file, all streams end together at its end)
        for k in tracks.indices where !ended[k] {
            let from = Int64((cut.seconds * Double(timescales[k])).rounded(.up))
            shortest.noteLeftOut(muxer.dropQueued(from: from, in: tracks[k]), input: k)
        }
    }

    /// With `end: shortest`, once an input has ended and every other one has reached that time.
    var hasEnded: Bool { shortest.cut != nil && !ended.contains(false) }
    func ends(whenInputsEnd inputsEnd: [Bool]) -> Bool { end.outputEnds(whenInputsEnd: inputsEnd) }

    var runNotes: [String] {
        guard let cut = shortest.cut else { return [] }
        let others = shortest.leftOut.enumerated().filter { $0.element > 0 }.map { "\($0.element) of '\(names[$0.offset])'" }
        return ["end: shortest: the file ends at \(TimeValue.clock(Rational(Int64((cut.seconds * 1e6).rounded()), 1_000_000))), where input '\(names[cut.input])' ended"
                + (others.isEmpty ? "" : "; packets left out after it: " + others.joined(separator: ", "))]
    }
}
