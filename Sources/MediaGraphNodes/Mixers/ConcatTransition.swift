import MediaGraphCore
import MediaGraphShader

/// The video side of a transition inside `concat`: the frames of a clip's last `overlap` are held
/// back until the clip ends (where it ends is known only then), then each frame of the next
/// clip's first `overlap` is blended with the outgoing clip's frame current at its time, at
/// progress 0→1 over the overlap. The next clip's frames give the output times there, as
/// ffmpeg's xfade takes them from its inputs' common rate.
///
/// The blend is a cross-fade on any pixel format, computed as ffmpeg's `xfade=transition=fade`
/// (`a·p + b·(1−p)` in single precision with p = 1 − progress, truncated), or a gl-transitions
/// shader (`TransitionProgram`) on rgba. Memory: the frames of one overlap.
struct ConcatTransition {
    enum Blend {
        case fade
        case shader(ShaderKernel, threads: Int)
    }

    let blend: Blend
    /// Output ticks the clips overlap.
    let overlap: Int64
    /// Held frames of the outgoing clip with their output pts, oldest first.
    private var tail: [(frame: SampleBuffer, pts: Int64)] = []
    /// Where the current overlap starts (output ticks), while the incoming clip is in it.
    private(set) var regionStart: Int64?
    var sources: [FramePlanes] = []

    /// Most frames one overlap may hold (bounded memory whatever the rate).
    static let maximumHeld = 1024

    init(blend: Blend, overlap: Int64) {
        self.blend = blend
        self.overlap = overlap
    }

    /// Holds a frame of a clip that a transition follows; returns the frames now certainly
    /// before its last `overlap` (the video so far ends at `videoEnd`; the clip ends no earlier),
    /// to send. A frame is kept while the next one starts after the earliest possible overlap
    /// start: it may be the outgoing picture at that time.
    mutating func hold(_ frame: SampleBuffer, pts: Int64, videoEnd: Int64, clip: Int) throws -> [(frame: SampleBuffer, pts: Int64)] {
        tail.append((frame, pts))
        var out: [(frame: SampleBuffer, pts: Int64)] = []
        while tail.count >= 2, tail[1].pts <= videoEnd &- overlap { out.append(tail.removeFirst()) }
        if tail.count > Self.maximumHeld {
            throw NodeFailure("clip \(clip): more than \(Self.maximumHeld) frames within the 'overlap' of the clip's end; use a shorter overlap")
        }
        return out
    }

    /// The outgoing clip ends at `end`: returns its frames before the overlap, to send; the
    /// last of them stays as the outgoing picture at the overlap's start when no frame starts
    /// exactly there.
    mutating func endClip(at end: Int64) -> [(frame: SampleBuffer, pts: Int64)] {
        let start = end &- overlap
        var out: [(frame: SampleBuffer, pts: Int64)] = []
        while tail.count >= 2, tail[1].pts <= start { out.append(tail.removeFirst()) }
        if let first = tail.first, first.pts < start { out.append(first) }
        regionStart = start
        return out
    }

    /// Whether a frame of the incoming clip at `pts` falls in the overlap.
    func inOverlap(_ pts: Int64) -> Bool {
        guard let start = regionStart, !tail.isEmpty else { return false }
        return pts < start &+ overlap
    }

    /// The overlap is over: lets go of the outgoing clip's frames.
    mutating func endOverlap() {
        tail.removeAll()
        regionStart = nil
    }

    /// The incoming frame `to` at output `pts` blended with the outgoing picture at that time.
    mutating func blended(_ to: SampleBuffer, pts: Int64, format: VideoFormat) throws -> WritableBuffer {
        guard let start = regionStart else { throw NodeFailure("concat: a transition frame outside an overlap") }
        while tail.count >= 2, tail[1].pts <= pts { tail.removeFirst() }
        let from = tail[0].frame
        guard let a = from.planes, let b = to.planes else { throw NodeFailure("concat: a transition needs raw video frames") }
        let progress = Double(pts &- start) / Double(overlap)
        var out = WritableBuffer(frame: format)
        out.copyMetadata(from: to)
        let dst = out.planes!
        switch blend {
        case .fade:
            Self.fade(a, b, into: dst, outgoingWeight: 1 - Float(pts &- start) / Float(overlap))
        case .shader(let kernel, let threads):
            try kernel.setUniform("progress", Float(min(max(progress, 0), 1)))
            sources = [a, b]
            try kernel.run(sources: sources, destination: dst, threads: threads)
        }
        return out
    }

    /// `a·w + b·(1−w)` per component in single precision, truncated (ffmpeg's xfade `fade`).
    static func fade(_ a: FramePlanes, _ b: FramePlanes, into d: FramePlanes, outgoingWeight w: Float) {
        let v = 1 - w
        let wide = a.format.bitDepth > 8
        for p in 0..<d.planeCount {
            let rows = d.planeSize(p).height, bytes = d.rowBytes(p)
            for y in 0..<rows {
                let pa = a.data(p) + y * a.stride(p), pb = b.data(p) + y * b.stride(p), pd = d.data(p) + y * d.stride(p)
                if wide {
                    let n = bytes / 2
                    pa.withMemoryRebound(to: UInt16.self, capacity: n) { sa in
                        pb.withMemoryRebound(to: UInt16.self, capacity: n) { sb in
                            pd.withMemoryRebound(to: UInt16.self, capacity: n) { sd in
                                for x in 0..<n { sd[x] = UInt16(Float(sa[x]) * w + Float(sb[x]) * v) }
                            }
                        }
                    }
                } else {
                    for x in 0..<bytes { pd[x] = UInt8(Float(pa[x]) * w + Float(pb[x]) * v) }
                }
            }
        }
    }
}
