import CAVCodec

/// Changes the tempo of audio without changing its pitch: WSOLA (waveform-similarity overlap-add)
/// as ffmpeg 5.1's `atempo` runs it, so that float input gives ffmpeg's float output sample for
/// sample.
///
/// How: the input is cut into Hann-windowed fragments of `window` samples (the power of two at or
/// above 1/24 s) that overlap by half in the output. Fragment k starts near k·tempo·window/2 in
/// the input; before it is used it is moved (within half a window) to where its start looks most
/// like the previous fragment's second half — the peak of their cross-correlation, computed with
/// libavutil's real FFT on a mono mix (per sample, the channel of largest magnitude), weighted
/// towards the drift that keeps the output on its ideal length. Overlapping halves are added with
/// the window as weights, in float as ffmpeg adds them.
///
/// Input and output are interleaved float. `process` may be fed any number of frames at a time
/// and returns what it could finish; `finish` returns the rest. Memory is fixed at construction
/// (a ring of three windows and two fragments).
public final class AudioTempo {
    public let tempo: Double
    public let channels: Int
    /// Samples per fragment (a power of two).
    public let window: Int

    private enum Stage { case load, align, reload, overlapAdd, flushing }

    /// One fragment: where it starts in the input (`inputStart`) and the output
    /// (`outputStart`), its samples (interleaved, `count` frames of at most `window`) and the
    /// spectrum of its mono mix.
    private final class Fragment {
        var inputStart: Int64 = 0
        var outputStart: Int64 = 0
        var count = 0
        let samples: UnsafeMutablePointer<Float>
        /// `window + 1` complex values (the real FFT of 2·window points).
        let spectrum: UnsafeMutablePointer<Float>

        init(window: Int, channels: Int) {
            samples = .allocate(capacity: window * channels)
            samples.initialize(repeating: 0, count: window * channels)
            spectrum = AudioTempo.alignedFloats(2 * (window + 1))
        }

        deinit {
            samples.deallocate()
            spectrum.deallocate()
        }
    }

    // the input ring: the last `ringCapacity` frames read, `ringCount` of them valid, oldest at
    // `ringHead`, next write at `ringTail`
    private let ring: UnsafeMutablePointer<Float>
    private let ringCapacity: Int
    private var ringCount = 0, ringHead = 0, ringTail = 0
    /// Frames read from the input so far, and written to the output.
    private var inputPosition: Int64 = 0, outputPosition: Int64 = 0

    private let fragments: [Fragment]
    private var fragmentNumber = 0
    private var stage = Stage.load
    private let hann: UnsafeMutablePointer<Float>

    private var forward: OpaquePointer?, inverse: OpaquePointer?
    private let forwardTransform: av_tx_fn, inverseTransform: av_tx_fn
    /// FFT input (2·window real values, zero beyond the fragment), and the cross-correlation's
    /// spectrum and values.
    private let mono: UnsafeMutablePointer<Float>
    private let productSpectrum: UnsafeMutablePointer<Float>
    private let correlation: UnsafeMutablePointer<Float>

    /// The tempo range ffmpeg's atempo takes.
    public static let tempoRange: ClosedRange<Double> = 0.5...100

    public init(tempo: Double, sampleRate: Int, channels: Int) throws {
        guard Self.tempoRange.contains(tempo) else {
            throw CodecError(.invalidSetting, component: "atempo", param: "tempo", message: "expected a tempo in 0.5…100, found \(tempo)")
        }
        guard (1...AudioResampler.maxChannels).contains(channels), (1...768_000).contains(sampleRate) else {
            throw CodecError(.invalidSetting, component: "atempo", message: "expected 1…\(AudioResampler.maxChannels) channels at 1…768000 Hz, found \(channels) at \(sampleRate) Hz")
        }
        self.tempo = tempo
        self.channels = channels
        // (at least 4, so that a fragment step, tempo·window/2, is at least one sample)
        var w = max(4, sampleRate / 24)
        if w & (w - 1) != 0 { w = 1 << (Int.bitWidth - w.leadingZeroBitCount) }
        window = w
        ringCapacity = 3 * w
        ring = .allocate(capacity: ringCapacity * channels)
        ring.initialize(repeating: 0, count: ringCapacity * channels)
        fragments = [Fragment(window: w, channels: channels), Fragment(window: w, channels: channels)]
        hann = .allocate(capacity: w)
        for i in 0..<w {
            // in double, stored as float, as ffmpeg's table
            let t = Double(i) / Double(w - 1)
            hann[i] = Float(0.5 * (1.0 - cos(2.0 * Double.pi * t)))
        }
        mono = Self.alignedFloats(2 * (w + 1))
        productSpectrum = Self.alignedFloats(2 * (w + 1))
        correlation = Self.alignedFloats(2 * w)

        var scale: Float = 1
        var f: av_tx_fn?, g: av_tx_fn?
        let a = av_tx_init(&forward, &f, AV_TX_FLOAT_RDFT, 0, Int32(2 * w), &scale, 0)
        let b = av_tx_init(&inverse, &g, AV_TX_FLOAT_RDFT, 1, Int32(2 * w), &scale, 0)
        guard a >= 0, b >= 0, let f, let g else {
            av_tx_uninit(&forward)
            av_tx_uninit(&inverse)
            for p in [ring, hann, mono, productSpectrum, correlation] { p.deallocate() }
            throw CodecError(.openFailed, component: "atempo", message: "libavutil could not set up a real FFT of \(2 * w) points")
        }
        forwardTransform = f
        inverseTransform = g
        // the first fragment starts half a window early, so its first half needs no partner
        fragments[0].inputStart = -Int64(w / 2)
        fragments[0].outputStart = -Int64(w / 2)
    }

    deinit {
        av_tx_uninit(&forward)
        av_tx_uninit(&inverse)
        for p in [ring, hann, mono, productSpectrum, correlation] { p.deallocate() }
    }

    /// Float storage aligned as libavutil's FFT wants it, zeroed.
    fileprivate static func alignedFloats(_ count: Int) -> UnsafeMutablePointer<Float> {
        let p = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 64).bindMemory(to: Float.self, capacity: count)
        p.initialize(repeating: 0, count: count)
        return p
    }

    private var current: Fragment { fragments[fragmentNumber & 1] }
    private var previous: Fragment { fragments[(fragmentNumber + 1) & 1] }

    /// Feeds `frames` interleaved frames and appends every output frame that is ready to `output`.
    public func process(_ input: UnsafePointer<Float>, frames: Int, into output: inout [Float]) {
        var source = input
        let end = input + frames * channels
        while true {
            if stage == .load {
                guard load(current, from: &source, end: end) else { break }
                transform(current)
                // alignment needs a previous fragment
                if fragmentNumber == 0 { advance(); continue }
                stage = .align
            }
            if stage == .align {
                stage = align() != 0 ? .reload : .overlapAdd
            }
            if stage == .reload {
                guard load(current, from: &source, end: end) else { break }
                transform(current)
                stage = .overlapAdd
            }
            if stage == .overlapAdd {
                overlapAdd(into: &output)
                advance()
                stage = .load
            }
        }
    }

    /// Appends the output still held back (the end of the input has been reached).
    public func finish(into output: inout [Float]) {
        // each round finishes one fragment; at most one per half window of input is left
        var rounds = 0
        while !flushOne(into: &output) {
            rounds += 1
            if rounds > ringCapacity { break }
        }
    }

    // MARK: - Steps

    /// Reads input into the ring until it holds everything before `stopAt`; false when the input
    /// ran out first.
    private func read(from source: inout UnsafePointer<Float>, end: UnsafePointer<Float>, until stopAt: Int64) -> Bool {
        if stopAt <= inputPosition { return true }
        while inputPosition < stopAt && source < end {
            let available = (end - source) / channels
            let wanted = Int(min(stopAt - inputPosition, Int64(available)))
            // in at most two pieces: up to the ring's end, then from its start
            var n = min(wanted, ringCapacity)
            while n > 0 {
                let piece = min(n, ringCapacity - ringTail)
                (ring + ringTail * channels).update(from: source, count: piece * channels)
                source += piece * channels
                inputPosition += Int64(piece)
                ringCount = min(ringCount + piece, ringCapacity)
                ringTail = (ringTail + piece) % ringCapacity
                ringHead = ringCount < ringCapacity ? ringTail - ringCount : ringTail
                n -= piece
            }
        }
        return inputPosition == stopAt
    }

    /// Fills `fragment` from the ring (zeros for what lies before the ring's oldest frame); with
    /// a source, reads up to the fragment's end first and returns false when the input ran out.
    private func load(_ fragment: Fragment, from source: inout UnsafePointer<Float>, end: UnsafePointer<Float>) -> Bool {
        guard read(from: &source, end: end, until: fragment.inputStart + Int64(window)) else { return false }
        fill(fragment)
        return true
    }

    private func fill(_ fragment: Fragment) {
        let stopAt = fragment.inputStart + Int64(window)
        let missing = max(0, stopAt - inputPosition)
        let count = missing < Int64(window) ? window - Int(missing) : 0
        fragment.count = count
        var out = fragment.samples
        let oldest = inputPosition - Int64(ringCount)
        var zeros = 0
        if fragment.inputStart < oldest {
            zeros = Int(min(oldest - fragment.inputStart, Int64(count)))
            out.update(repeating: 0, count: zeros * channels)
            out += zeros * channels
        }
        if zeros == count { return }
        // the ring's valid frames in order: [head, head + firstRun) then [0, secondRun)
        let firstRun = ringHead < ringTail ? ringTail - ringHead : ringCapacity - ringHead
        let secondRun = ringHead < ringTail ? 0 : ringTail
        let skip = Int(fragment.inputStart + Int64(zeros) - oldest)
        let wanted = min(count - zeros, max(0, firstRun + secondRun - skip))
        let fromFirst = skip < firstRun ? min(firstRun - skip, wanted) : 0
        if fromFirst > 0 {
            out.update(from: ring + (ringHead + skip) * channels, count: fromFirst * channels)
            out += fromFirst * channels
        }
        let fromSecond = wanted - fromFirst
        if fromSecond > 0 {
            let start = skip < firstRun ? 0 : skip - firstRun
            out.update(from: ring + start * channels, count: fromSecond * channels)
            out += fromSecond * channels
        }
        // (a shortfall cannot happen: the ring holds three windows; zeros keep it defined if it did)
        let short = count - zeros - wanted
        if short > 0 { out.update(repeating: 0, count: short * channels) }
    }

    /// The mono mix's spectrum: per frame the sample of largest magnitude (clamped to 1, the
    /// first channel winning ties), zero-padded to twice the window, through the real FFT.
    private func transform(_ fragment: Fragment) {
        mono.update(repeating: 0, count: 2 * (window + 1))
        let s = fragment.samples
        if channels == 1 {
            mono.update(from: s, count: fragment.count)
        } else {
            for i in 0..<fragment.count {
                let frame = s + i * channels
                var pick = frame[0], size = min(1, abs(pick))
                for c in 1..<channels {
                    let v = frame[c], m = min(1, abs(v))
                    if size < m { size = m; pick = v }
                }
                mono[i] = pick
            }
        }
        forwardTransform(forward, fragment.spectrum, mono, MemoryLayout<Float>.stride)
    }

    /// Moves the current fragment to where it best continues the previous one; returns the
    /// correction (0: it stays).
    private func align() -> Int {
        let prev = previous, frag = current
        let half = window / 2
        // how far the output has run ahead of where this tempo would put it (ffmpeg's drift)
        let outputSoFar = Double(prev.outputStart + Int64(half)) * tempo
        let idealSoFar = Double(prev.inputStart + Int64(half))
        let drift = Int(outputSoFar - idealSoFar)

        // cross-correlation: spectrum of prev times the conjugate of frag's, back through the FFT
        let a = prev.spectrum, b = frag.spectrum, c = productSpectrum
        for i in 0...window {
            let ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1]
            c[2 * i] = ar * br + ai * bi
            c[2 * i + 1] = ai * br - ar * bi
        }
        inverseTransform(inverse, correlation, c, MemoryLayout<Float>.stride)

        var lower = max(half - half - drift, 0)
        lower = min(lower, window)
        var upper = min(half + half - drift, window - window / 16)
        upper = max(upper, 0)
        var best = -drift
        var bestMetric = -Float.greatestFiniteMagnitude
        if lower < upper {
            for i in lower..<upper {
                // favour lags near the drift correction and away from the search window's edges
                let weight = Float(drift + i) * Float(i - lower) * Float(upper - i)
                let metric = correlation[i] * weight
                if metric > bestMetric {
                    bestMetric = metric
                    best = i - half
                }
            }
        }
        if best != 0 {
            frag.inputStart -= Int64(best)
            frag.count = 0
        }
        return best
    }

    /// Adds the previous fragment's tail and the current one's head, weighted by the window, and
    /// appends them; where the current fragment lies before the input's start, the previous
    /// fragment's samples are taken as they are.
    private func overlapAdd(into output: inout [Float]) {
        let prev = previous, frag = current
        let start = max(outputPosition, frag.outputStart)
        let stop = min(prev.outputStart + Int64(prev.count), frag.outputStart + Int64(frag.count))
        guard stop > start, start >= frag.outputStart, start >= prev.outputStart else { return }
        let overlap = Int(stop - start)
        let ia = Int(start - prev.outputStart), ib = Int(start - frag.outputStart)
        let first = output.count
        output.append(contentsOf: repeatElement(0, count: overlap * channels))
        output.withUnsafeMutableBufferPointer { o in
            var out = o.baseAddress! + first
            let a = prev.samples + ia * channels, b = frag.samples + ib * channels
            for i in 0..<overlap {
                let w0 = hann[ia + i], w1 = hann[ib + i]
                let leading = frag.inputStart + Int64(i) < 0
                for c in 0..<channels {
                    let t0 = a[i * channels + c], t1 = b[i * channels + c]
                    out[c] = leading ? t0 : t0 * w0 + t1 * w1
                }
                out += channels
            }
        }
        outputPosition = stop
    }

    /// The next fragment: tempo·window/2 further on in the input, window/2 in the output.
    private func advance() {
        let step = tempo * Double(window / 2)
        fragmentNumber += 1
        let prev = previous, frag = current
        frag.inputStart = prev.inputStart + Int64(step)
        frag.outputStart = prev.outputStart + Int64(window / 2)
        frag.count = 0
    }

    /// One step of the end of stream; true when everything is out.
    private func flushOne(into output: inout [Float]) -> Bool {
        stage = .flushing
        if fragmentNumber == 0 { return true }
        let frag = current
        if inputPosition == frag.inputStart + Int64(frag.count) && outputPosition == frag.outputStart + Int64(frag.count) { return true }
        if frag.inputStart + Int64(frag.count) < inputPosition {
            // the last, possibly partial, fragment
            fill(frag)
            transform(frag)
            if align() != 0 { fill(frag) }
        }
        let overlapEnd = frag.outputStart + Int64(min(window / 2, frag.count))
        if outputPosition < overlapEnd { overlapAdd(into: &output) }
        if frag.inputStart + Int64(frag.count) < inputPosition {
            advance()
            return false
        }
        // the rest of the last fragment as it is
        let start = max(outputPosition, overlapEnd)
        let stop = frag.outputStart + Int64(frag.count)
        guard stop > start, start >= frag.outputStart else { return true }
        let offset = Int(start - frag.outputStart)
        output.append(contentsOf: UnsafeBufferPointer(start: frag.samples + offset * channels, count: Int(stop - start) * channels))
        outputPosition = stop
        return true
    }
}
