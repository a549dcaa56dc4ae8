import MediaGraphCore

/// The audio side of a transition inside `concat`: the last `overlap` samples of a clip are held
/// back, then mixed with the first `overlap` samples of the next clip as ffmpeg's `acrossfade`:
/// at sample i of n, the outgoing clip's gain is its curve's at n−1−i and the incoming one's its
/// curve's at i ((n−1−i)/n and i/n with the default `tri`), computed in double precision.
///
/// Memory: the held samples (overlap × rate) plus at most one buffer.
struct ConcatCrossfade {
    let format: AudioFormat
    /// Samples the two clips overlap.
    let overlap: Int
    /// The outgoing and incoming clips' fade curves.
    let curves: (out: AudioFadeCurve, in: AudioFadeCurve)
    /// Buffers of the current clip not yet sent, with their output pts, oldest first.
    private var held: [(buffer: SampleBuffer, pts: Int64)] = []
    private var heldSamples = 0
    /// The outgoing clip's last `overlap` samples, per channel, while the next clip's first
    /// samples arrive; `mixed` of them done.
    private var tail: [[Double]] = []
    private var mixed = 0

    init(format: AudioFormat, overlap: Int, curves: (out: AudioFadeCurve, in: AudioFadeCurve) = (.tri, .tri)) {
        self.format = format
        self.overlap = overlap
        self.curves = curves
    }

    /// Whether the next clip's samples are still being mixed with the previous clip's tail.
    var isMixing: Bool { !tail.isEmpty && mixed < overlap }

    /// Samples of the held tail not yet mixed with the next clip's.
    var leftToMix: Int { isMixing ? overlap - mixed : 0 }

    /// Holds a buffer of a clip that a transition follows; returns the buffers that are now
    /// certainly before its last `overlap` samples, to send.
    mutating func hold(_ buffer: SampleBuffer, pts: Int64) -> [(buffer: SampleBuffer, pts: Int64)] {
        held.append((buffer, pts))
        heldSamples += buffer.sampleCount
        var out: [(buffer: SampleBuffer, pts: Int64)] = []
        while let first = held.first, heldSamples - first.buffer.sampleCount >= overlap {
            out.append(first)
            heldSamples -= first.buffer.sampleCount
            held.removeFirst()
        }
        return out
    }

    /// The clip has ended (its silence padding already held): keeps its last `overlap` samples
    /// for mixing and returns what comes before them, to send (a buffer that straddles the
    /// boundary is split). Throws when the clip had fewer samples than the overlap.
    mutating func endClip(clip: Int) throws -> [(buffer: SampleBuffer, pts: Int64)] {
        guard heldSamples >= overlap else {
            throw NodeFailure("clip \(clip)'s audio lasts \(heldSamples) samples, less than the 'overlap' of \(overlap) samples (\(Double(overlap) / Double(format.sampleRate)) s)")
        }
        var out: [(buffer: SampleBuffer, pts: Int64)] = []
        var before = heldSamples - overlap
        tail = Array(repeating: [], count: format.channels)
        for c in 0..<format.channels { tail[c].reserveCapacity(overlap) }
        for (buffer, pts) in held {
            let n = buffer.sampleCount
            let keepFrom = min(n, before)
            if keepFrom == n { out.append((buffer, pts)); before -= n; continue }
            if keepFrom > 0 { out.append((slice(buffer, from: 0, count: keepFrom), pts)) }
            before = 0
            let layout = AudioSampleLayout(format: format.sampleFormat, channels: format.channels, count: n)
            buffer.withUnsafeBytes { raw in
                for c in 0..<format.channels {
                    for i in keepFrom..<n { tail[c].append(layout.read(raw, i, channel: c)) }
                }
            }
        }
        held.removeAll()
        heldSamples = 0
        mixed = 0
        return out
    }

    /// A buffer of the incoming clip, its first samples mixed with the held tail (a new buffer;
    /// the input is only read).
    mutating func mix(_ buffer: SampleBuffer, pts: Int64) -> SampleBuffer {
        let n = buffer.sampleCount
        var bytes = [UInt8](repeating: 0, count: n * format.channels * format.sampleFormat.bytesPerSample)
        let layout = AudioSampleLayout(format: format.sampleFormat, channels: format.channels, count: n)
        let m = min(n, overlap - mixed)
        let range = Int64(overlap)
        buffer.withUnsafeBytes { raw in
            bytes.withUnsafeMutableBytes { out in
                out.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<min(raw.count, out.count)]))
                for i in 0..<m {
                    let k = mixed + i
                    let outgoing = curves.out.gain(Int64(overlap - 1 - k), range), incoming = curves.in.gain(Int64(k), range)
                    for c in 0..<format.channels {
                        layout.write(out, i, channel: c, tail[c][k] * outgoing + layout.read(raw, i, channel: c) * incoming)
                    }
                }
            }
        }
        mixed += m
        if mixed >= overlap { tail.removeAll() }
        return SampleBuffer(bytes: bytes, format: .audio(format), pts: pts, duration: Int64(n),
                            timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n)
    }

    /// Samples `from..<from+count` of `buffer` as a buffer of their own.
    private func slice(_ buffer: SampleBuffer, from: Int, count: Int) -> SampleBuffer {
        let n = buffer.sampleCount, bps = format.sampleFormat.bytesPerSample, ch = format.channels
        var bytes = [UInt8](repeating: 0, count: count * ch * bps)
        buffer.withUnsafeBytes { raw in
            bytes.withUnsafeMutableBytes { out in
                if format.sampleFormat.isPlanar {
                    for c in 0..<ch {
                        out.baseAddress!.advanced(by: c * count * bps)
                            .copyMemory(from: raw.baseAddress!.advanced(by: (c * n + from) * bps), byteCount: count * bps)
                    }
                } else {
                    out.baseAddress!.copyMemory(from: raw.baseAddress!.advanced(by: from * ch * bps), byteCount: count * ch * bps)
                }
            }
        }
        return SampleBuffer(bytes: bytes, format: .audio(format), pts: 0, duration: Int64(count),
                            timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: count)
    }
}
