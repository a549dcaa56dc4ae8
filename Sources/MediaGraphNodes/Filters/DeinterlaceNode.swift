import MediaGraphCore
import MediaGraphKernels

/// `deinterlace`: ffmpeg 5.1's `yadif`, the same bytes and the same frame times.
///
/// Each output picture is built from three input frames (`YadifKernel`): the one before, the
/// current one and the one after. The node holds the frames back by one: the first frame stands
/// in for its own predecessor, and at the end the last one for its successor (whose time is
/// extrapolated, as ffmpeg does). The output time base is half the input's: a frame at tick t
/// comes out at 2t, and in `field` mode its second field at t + (the next frame's t), halfway.
/// Durations (which ffmpeg 5.1's filter leaves alone) keep their length in seconds, halved for
/// a field.
public final class DeinterlaceNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .yuv420p10, .yuv422p10, .yuv444p10]
    public static let typeInfo = NodeTypeInfo(
        name: "deinterlace",
        doc: "Deinterlaces video: ffmpeg's yadif, the same bytes (one frame per frame, or one per field at twice the rate).",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw interlaced video, planar YUV or gray, 8 or 10 bits")],
        outputs: [PortSpec("out", .video(formats), doc: "progressive frames, time base half the input's; twice the frame rate in the field modes")],
        params: ParamSpec.list(modeParam, parityParam, deintParam, KernelFilter.threadsParam))
    static let modeParam = Param<String>("mode", oneOf: ["frame", "field", "frame-nospatial", "field-nospatial"], default: "frame",
                                         doc: "frame: one frame out per frame in (yadif=0); field: one per field, twice the frame rate (yadif=1); the -nospatial modes skip the check against the rows two up and down (yadif=2, 3)")
    static let parityParam = Param<String>("parity", oneOf: ["auto", "tff", "bff"], default: "auto",
                                           doc: "which field comes first: auto takes each frame's field order as decoded (top first when the frame is not flagged interlaced); tff top first; bff bottom first")
    static let deintParam = Param<String>("deint", oneOf: ["all", "interlaced"], default: "all",
                                          doc: "all: every frame; interlaced: only frames the decoder flags interlaced, others pass through unchanged")

    let perField: Bool
    let spatialCheck: Bool
    /// nil: from each frame's flags.
    let topFieldFirst: Bool?
    let onlyFlagged: Bool
    let threads: Int
    var output: VideoFormat!

    /// A held input frame and the time ffmpeg gives it (the stand-in at the end gets its own).
    struct Held {
        var buffer: SampleBuffer
        var pts: Int64
    }
    var prev: Held?, cur: Held?, next: Held?
    private(set) var passedThrough = 0

    public init(setup: NodeSetup) throws {
        let mode = setup.params[Self.modeParam]
        perField = mode.hasPrefix("field")
        spatialCheck = !mode.hasSuffix("-nospatial")
        switch setup.params[Self.parityParam] {
        case "tff": topFieldFirst = true
        case "bff": topFieldFirst = false
        default: topFieldFirst = nil
        }
        onlyFlagged = setup.params[Self.deintParam] == "interlaced"
        threads = setup.params[KernelFilter.threadsParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard var v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        guard Self.formats.contains(v.pixelFormat) else {
            throw NodeFailure("takes \(Self.formats.map(\.rawValue).joined(separator: ", ")), found \(v.pixelFormat.rawValue)")
        }
        guard v.width >= 3, v.height >= 3 else {
            throw NodeFailure("the picture is \(v.width)x\(v.height); deinterlacing needs at least 3 columns and 3 rows (as ffmpeg's yadif)")
        }
        let (den, overflow) = v.timeBase.den.multipliedReportingOverflow(by: 2)
        guard !overflow else { throw NodeFailure("the input time base \(v.timeBase) cannot be halved") }
        v.timeBase = Rational(v.timeBase.num, den)
        if perField, v.frameRate.num > 0 {
            let (num, o) = v.frameRate.num.multipliedReportingOverflow(by: 2)
            if !o { v.frameRate = Rational(num, v.frameRate.den) }
        }
        v.interlacing = .progressive
        output = v
        return [.video(v)]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard frame.format.width == self.output.width, frame.format.height == self.output.height,
              frame.format.pixelFormat == self.output.pixelFormat else {
            throw NodeFailure("a frame of \(frame.format.pixelFormat.rawValue) \(frame.format.width)x\(frame.format.height) arrived on a stream configured as \(self.output.pixelFormat.rawValue) \(self.output.width)x\(self.output.height)")
        }
        let pts = frame.pts
        try take(Held(buffer: frame.take(), pts: pts), output: output)
    }

    /// ffmpeg's order: the newest frame becomes `next`; the picture of `cur` is made once a
    /// frame before it exists (the first frame is its own predecessor).
    private func take(_ frame: Held, output: NodeOutput) throws {
        prev = cur
        cur = next
        next = frame
        if cur == nil {
            cur = frame
            return
        }
        guard prev != nil, let c = cur, let n = next else { return }
        if onlyFlagged && !c.buffer.flags.contains(.interlaced) {
            var w = c.buffer.writableCopy()
            stamp(&w.metadata, from: c, pts: Self.double(c.pts), duration: c.buffer.duration &* 2)
            try output.send(consume w)
            passedThrough += 1
            return
        }
        let tff = topFieldFirst ?? (c.buffer.flags.contains(.interlaced) ? c.buffer.flags.contains(.topFieldFirst) : true)
        // the first picture shows the first field's time: the first field's rows are kept
        try emit(keeping: tff ? 0 : 1, earlier: true, pts: Self.double(c.pts),
                 duration: perField ? c.buffer.duration : c.buffer.duration &* 2, output: output)
        if perField {
            var pts = SampleBuffer.noTime
            if c.pts != SampleBuffer.noTime, n.pts != SampleBuffer.noTime {
                let (sum, o) = c.pts.addingReportingOverflow(n.pts)
                if !o { pts = sum }
            }
            try emit(keeping: tff ? 1 : 0, earlier: false, pts: pts, duration: c.buffer.duration, output: output)
        }
    }

    private func emit(keeping parity: Int, earlier: Bool, pts: Int64, duration: Int64, output: NodeOutput) throws {
        guard let p = prev, let c = cur, let n = next,
              let pp = p.buffer.planes, let cp = c.buffer.planes, let np = n.buffer.planes else { return }
        var w = WritableBuffer(frame: self.output, timeBase: self.output.timeBase)
        YadifKernel.run(prev: pp, cur: cp, next: np, dst: w.planes!,
                        field: YadifField(keptRowParity: parity, missingFieldIsEarlier: earlier, spatialCheck: spatialCheck),
                        threads: threads)
        stamp(&w.metadata, from: c, pts: pts, duration: duration)
        w.metadata.flags.remove([.interlaced, .topFieldFirst])
        try output.send(consume w)
    }

    private func stamp(_ m: inout BufferMetadata, from c: Held, pts: Int64, duration: Int64) {
        m.copyTiming(from: c.buffer.metadata)
        m.format = .video(output)
        m.timeBase = output.timeBase
        m.pts = pts
        m.dts = pts
        m.duration = max(0, duration)
    }

    /// A time in ticks of the halved time base (no time stays none).
    static func double(_ t: Int64) -> Int64 {
        guard t != SampleBuffer.noTime else { return t }
        let (d, o) = t.multipliedReportingOverflow(by: 2)
        return o ? SampleBuffer.noTime : d
    }

    /// At the end the last frame stands in for the one after it, at the time ffmpeg gives that
    /// stand-in: twice the last frame's time less the time of the one before.
    public func finish(output: NodeOutput) throws {
        guard let c = cur, let n = next else { return }
        var pts = SampleBuffer.noTime
        if n.pts != SampleBuffer.noTime, c.pts != SampleBuffer.noTime {
            let (twice, o1) = n.pts.multipliedReportingOverflow(by: 2)
            let (t, o2) = twice.subtractingReportingOverflow(c.pts)
            if !o1, !o2 { pts = t }
        }
        try take(Held(buffer: n.buffer, pts: pts), output: output)
        prev = nil; cur = nil; next = nil
    }

    public func abort() { prev = nil; cur = nil; next = nil }

    public var runNotes: [String] {
        passedThrough == 0 ? [] : ["\(passedThrough) frame\(passedThrough == 1 ? "" : "s") not flagged interlaced passed through unchanged"]
    }
}
