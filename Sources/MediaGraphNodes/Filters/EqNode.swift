import MediaGraphCore
import MediaGraphKernels

/// `eq`: ffmpeg 5.1's `eq` filter, the same bytes: contrast, brightness, saturation and gammas
/// on the stored Y'CbCr values (`EqTables`, three byte tables run by `PlaneCurvesKernel`). Each
/// setting is a number or an expression of `n`, `t`, `r` (frame rate) and `pos`; with `eval`
/// "init" (ffmpeg's default) they are evaluated once with all four 0, as ffmpeg evaluates them
/// before it knows the stream, with "frame" for every frame. This is ffmpeg's eq for commands
/// copied from ffmpeg; `brightness`, `contrast`, `saturation` and `gamma` are the colour filters
/// that fuse with the others.
public final class EqNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p]
    public static let typeInfo = NodeTypeInfo(
        name: "eq",
        doc: "ffmpeg's eq, the same bytes: contrast, brightness, saturation and gamma on the Y'CbCr values (eq=contrast=1.2:brightness=0.05:saturation=1.3); settings may be expressions of n, t, r, pos evaluated per frame with eval \"frame\".",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video (others are converted)")],
        outputs: [PortSpec("out", .video(formats), doc: "the adjusted frames")],
        params: ParamSpec.list(contrastParam, brightnessParam, saturationParam, gammaParam, gammaRParam, gammaGParam, gammaBParam,
                               gammaWeightParam, evalParam))
    static let contrastParam = ExpressionParam.with("contrast", default: "1", doc: "-1000…1000: scales Y' about mid-grey (negative inverts)")
    static let brightnessParam = ExpressionParam.with("brightness", default: "0", doc: "-1…1: added to Y' (as a fraction of full scale)")
    static let saturationParam = ExpressionParam.with("saturation", default: "1", doc: "0…3: scales Cb and Cr (0 grey)")
    static let gammaParam = ExpressionParam.with("gamma", default: "1", doc: "0.1…10: gamma of Y'")
    static let gammaRParam = ExpressionParam.with("gamma-r", default: "1", doc: "0.1…10: gamma for red (applied to Cr as ffmpeg does)")
    static let gammaGParam = ExpressionParam.with("gamma-g", default: "1", doc: "0.1…10: gamma for green")
    static let gammaBParam = ExpressionParam.with("gamma-b", default: "1", doc: "0.1…10: gamma for blue (applied to Cb)")
    static let gammaWeightParam = ExpressionParam.with("gamma-weight", default: "1", doc: "0…1: less gamma on bright areas below 1")
    static let evalParam = Param<String>("eval", oneOf: ["init", "frame"], default: "init",
                                         doc: "init: settings evaluated once (n, t, r, pos all 0); frame: for every frame")

    static let variables = ["n", "pos", "r", "t"]
    let settings: [NumericExpression]
    let perFrame: Bool
    var values = [0.0, 0.0, 0.0, 0.0]
    var frames = 0
    /// The settings the kernel was last made for (starts as the identity: no kernel).
    var tables = EqTables()
    var kernel: PlaneCurvesKernel?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        frames = setup.firstFrameNumber
        let params = [Self.contrastParam, Self.brightnessParam, Self.saturationParam, Self.gammaParam, Self.gammaRParam,
                      Self.gammaGParam, Self.gammaBParam, Self.gammaWeightParam]
        settings = try params.map { try ExpressionParam.parse(p[$0], param: $0.name, variables: Self.variables) }
        perFrame = p[Self.evalParam] == "frame"
        if !perFrame { try update() }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        // ffmpeg's r: the frame rate, NaN when unknown
        values[2] = v.frameRate.num > 0 && v.frameRate.den > 0 ? v.frameRate.doubleValue : .nan
        return [inputs[0].format]
    }

    /// Evaluates the settings with `values` and remakes the kernel when its tables changed (a
    /// setting that moves with t often gives the same bytes from frame to frame; the kernel's
    /// pair tables are worth keeping then).
    private func update() throws {
        let v = settings.map { $0.evaluate(values) }
        var next = EqTables()
        next.set(contrast: v[0], brightness: v[1], saturation: v[2], gamma: v[3], gammaR: v[4], gammaG: v[5], gammaB: v[6], gammaWeight: v[7])
        guard next != tables else { return }
        tables = next
        if next.isIdentity { kernel = nil; return }
        let curves = next.curves
        if curves != kernel?.curves { kernel = PlaneCurvesKernel(curves) }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        if perFrame {
            values[0] = Double(frames)
            values[1] = .nan
            values[3] = frame.pts == SampleBuffer.noTime ? .nan : Double(frame.pts) * frame.timeBase.doubleValue
            frames += 1
            try update()
        }
        guard let kernel else { return try output.send(consume frame) }
        try output.sendTransformed(consume frame) { src, dst, _ in
            try kernel.run(source: src, destination: dst)
        }
    }
}
