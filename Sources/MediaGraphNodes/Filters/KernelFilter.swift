import MediaGraphCore
import MediaGraphKernels

/// A pixel kernel as a filter runs it: once per frame, source and destination possibly the same.
public protocol FrameKernel {
    func run(source: FramePlanes, destination: FramePlanes, threads: Int) throws
    /// True when running the kernel would change no pixel (brightness 0, contrast 1, …): the
    /// filter then forwards the frame itself, neither copied nor touched.
    var isIdentity: Bool { get }
}

extension FrameKernel {
    public var isIdentity: Bool { false }
}

extension InvertKernel: FrameKernel {}
extension ColorMatrixKernel: FrameKernel {
    public var isIdentity: Bool { transform.isIdentity }
}
extension ChannelCurvesKernel: FrameKernel {
    public var isIdentity: Bool { curves.isIdentity }
}
extension LUT3DKernel: FrameKernel {}
extension PlaneCurvesKernel: FrameKernel {
    public var isIdentity: Bool { curves.isIdentity }
}
extension PlaneChromaKernel: FrameKernel {}
extension PlaneColorChainKernel: FrameKernel {}

/// The shared base of the built-in pixel filters: the subclass declares its params once and picks
/// a kernel from their values (`makeKernel`); every frame then runs through it in place when the
/// frame is unshared, or from the shared frame into a new one otherwise
/// (`NodeOutput.sendTransformed`). A kernel that changes nothing passes frames through as they
/// are. Params declared `live` may change while the graph runs: the kernel is made again from
/// the new values between two frames.
///
/// A filter is one short subclass plus one registration line (Docs/writing-a-filter.md):
/// ```swift
/// public final class SepiaFilter: KernelFilter, RegisteredNode {
///     static let intensity = Param<Double>("intensity", ColorTransform.intensityRange, default: 1, live: true, doc: "mix with the input")
///     public static let typeInfo = filterInfo("sepia", "GPUImage's sepia tone.", formats: ColorMatrixKernel.formats, params: [intensity])
///     override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
///         ColorMatrixKernel(try .sepia(intensity: p[intensity]))
///     }
/// }
/// ```
open class KernelFilter: VideoNode, LiveParamsNode {
    /// The `threads` param every kernel filter has.
    public static let threadsParam = Param<Int>("threads", 0...256, default: 0, doc: "threads for the row bands (0 = all cores)")
    /// The `fuse` param every kernel filter has (Docs/filters.md, "Fusion").
    public static let fuseParam = Param<Bool>("fuse", default: true,
                                              doc: "false keeps this filter its own pass (bit-exact stage-by-stage output); true lets a run of colour filters become one pass")

    /// The formats of a colour filter that also runs on Y'CbCr planes (`colorTransform` diagonal
    /// there): rgba, bgra and 8-bit planar YUV.
    public static let colorMapFormats = ColorMatrixKernel.formats + PlaneCurvesKernel.formats

    private(set) var kernel: FrameKernel
    let threads: Int
    /// Whether this filter may join a fused run (`fuse` param).
    let fuse: Bool
    private var params: ParamValues
    /// The input when it is planar YUV that the filter runs on as tables (`PlaneCurves`).
    private var planes: VideoFormat?

    public required init(setup: NodeSetup) throws {
        threads = setup.params[Self.threadsParam]
        fuse = setup.params[Self.fuseParam]
        params = setup.params
        kernel = try Self.kernel(for: setup.params, planes: nil)
    }

    /// The kernel for these params; throw a `NodeFailure` naming the param when they cannot work
    /// (a `KernelError` thrown here is turned into one). The default runs `colorTransform`.
    open class func makeKernel(_ params: ParamValues) throws -> FrameKernel {
        guard let map = try colorTransform(params, luma: ColorTransform.luminanceWeights) else {
            throw NodeFailure("\(self) does not choose a kernel")
        }
        return ColorMatrixKernel(map)
    }

    /// The filter as an affine colour map, for a filter that is one on every input: `luma` is the
    /// weights it takes luminance with — Rec. 709 (GPUImage's) on RGB frames, the frame's own on
    /// YUV frames, so that saturation and grayscale act on Cb and Cr alone there. On YUV frames
    /// (`colorMapFormats`) a map diagonal in Y'CbCr runs as one table per plane, one that turns
    /// Cb and Cr together as `PlaneChroma`, any other through R'G'B' per pixel (`PlaneColorChain`).
    open class func colorTransform(_ params: ParamValues, luma: SIMD3<Double>) throws -> ColorTransform? { nil }

    static func kernel(for params: ParamValues, planes: VideoFormat?) throws -> FrameKernel {
        do {
            if let planes, let map = try colorTransform(params, luma: planes.matrix.lumaWeights) {
                let full = planes.range == .full
                if let curves = PlaneCurves(map, matrix: planes.matrix, fullRange: full) {
                    return PlaneCurvesKernel(curves, lines: PlaneLines(map, matrix: planes.matrix, fullRange: full))
                }
                if let chroma = PlaneChroma(map, matrix: planes.matrix, fullRange: full) { return PlaneChromaKernel(chroma) }
                // Y' and chroma mixed (sepia, gains): the RGB route per pixel, in one pass.
                return PlaneColorChainKernel(PlaneColorChain([map], matrix: planes.matrix, fullRange: full))
            }
            return try makeKernel(params)
        } catch let e as KernelError { throw NodeFailure(KernelParamName.message(for: e)) }
    }

    /// A filter's declaration: one input and one output of the given pixel formats, its params
    /// plus `threads`.
    public static func filterInfo(_ name: String, _ doc: String, formats: [PixelFormat], params: [any ParamDeclaration] = []) -> NodeTypeInfo {
        NodeTypeInfo(name: name, doc: doc, category: .filter,
                     inputs: [PortSpec("in", .video(formats), doc: "raw video")],
                     outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                     params: ParamSpec.list(params) + [threadsParam.spec, fuseParam.spec])
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        if let video = inputs[0].format.video, PlaneCurvesKernel.formats.contains(video.pixelFormat) {
            planes = video
            kernel = try Self.kernel(for: params, planes: video)
        }
        return [inputs[0].format]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        if kernel.isIdentity {
            try output.send(consume frame)
            return
        }
        try output.sendTransformed(consume frame) { src, dst, _ in
            try kernel.run(source: src, destination: dst, threads: threads)
        }
    }

    /// A live param changed (on this node's thread, between two frames): the kernel is made
    /// again from the new values.
    public func update(params: ParamValues) throws {
        kernel = try Self.kernel(for: params, planes: planes)
        self.params = params
    }
}

/// Every kernel filter is a point-wise stage of the colour-map family; those whose kernel is an
/// affine colour map (`colorMap`) on rgba/bgra fuse (`ColorMapFusion`).
extension KernelFilter: PointwiseStage {
    public var fusionFamily: String { ColorMapFusion.family }

    public func fusionBlocker(format: MediaFormat) -> String? {
        if !fuse { return "its \"fuse\" param is false" }
        if let pixels = format.video?.pixelFormat, PlaneCurvesKernel.formats.contains(pixels) {
            if kernel is PlaneChromaKernel { return "on \(pixels) it turns Cb and Cr together, not one table per plane" }
            // through R'G'B' per pixel: a run holding it goes that way as a whole (`PlaneChainFusion`)
            if kernel is PlaneColorChainKernel { return nil }
            return planeCurves == nil ? "on \(pixels) it is not one table per plane" : nil
        }
        guard let pixels = format.video?.pixelFormat, ColorMatrixKernel.formats.contains(pixels) else {
            return "colour maps fuse on rgba/bgra and 8-bit planar YUV frames, it gets \(format.video?.pixelFormat.rawValue ?? "\(format)")"
        }
        if colorMap == nil && !(kernel is ChannelCurvesKernel) && !(kernel is LUT3DKernel) {
            return "its kernel is neither a colour map, per-channel curves nor a 3D LUT"
        }
        return nil
    }

    /// The kernel as tables on Y'CbCr planes, when it runs on YUV frames as them (invert's
    /// 255 - x included).
    public var planeCurves: PlaneCurves? {
        if let tables = kernel as? PlaneCurvesKernel { return tables.curves }
        if kernel is InvertKernel, planes != nil {
            let down = (0..<256).map { UInt8(255 - $0) }
            return PlaneCurves(y: down, cb: down, cr: down)
        }
        return nil
    }

    /// The filter as clamped lines on Y'CbCr planes, unrounded, when it runs on YUV frames as
    /// tables (`planeCurves` rounds these lines).
    public var planeLines: PlaneLines? {
        guard let planes, planeCurves != nil else { return nil }
        if kernel is InvertKernel { return .invert }
        guard let map = try? type(of: self).colorTransform(params, luma: planes.matrix.lumaWeights) else { return nil }
        return PlaneLines(map, matrix: planes.matrix, fullRange: planes.range == .full)
    }

    /// The YUV frames this filter runs on, when it runs on Y'CbCr planes.
    var planeFormat: VideoFormat? { planes }

    /// On YUV frames, the filter as the R'G'B' map it is there (luminance with the frame's own
    /// weights; invert as 255 − x on each plane), for a run that goes through R'G'B' per pixel.
    var planeRouteMap: ColorTransform? {
        guard let planes else { return nil }
        if kernel is InvertKernel { return PlaneColorChain.invertMap(matrix: planes.matrix, fullRange: planes.range == .full) }
        return try? type(of: self).colorTransform(params, luma: planes.matrix.lumaWeights)
    }

    /// The kernel as an affine colour map on rgba/bgra, when it is one.
    public var colorMap: ColorTransform? {
        if let matrix = kernel as? ColorMatrixKernel { return matrix.transform }
        if kernel is InvertKernel { return .invert }
        return nil
    }
}

/// The node param a `KernelError` is about: kernels name parameters `kernel.channel.name` in
/// camel case (`rgb.green`, `levels.red.inputMin`, `levels.all.gamma`, `matrix[3]`); the nodes
/// call the same values `green`, `red-input-min`, `gamma`, `matrix`.
public enum KernelParamName {
    public static func message(for error: KernelError) -> String {
        switch error {
        case .parameterOutOfRange(let name, _, _), .invalidParameter(let name, _):
            return "param '\(paramName(name))': \(error)"
        default:
            return "\(error)"
        }
    }

    public static func paramName(_ kernelName: String) -> String {
        var parts = kernelName.split(separator: ".").map(String.init)
        if parts.count > 1 { parts.removeFirst() }
        parts.removeAll { $0 == "all" }
        return parts.map { part in
            var out = ""
            for ch in part.prefix(while: { $0 != "[" }) {
                if ch.isUppercase { out += "-" + ch.lowercased() } else { out.append(ch) }
            }
            return out
        }.joined(separator: "-")
    }
}
