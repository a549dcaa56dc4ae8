import MediaGraphCodecs
import MediaGraphCore
import MediaGraphKernels

/// Where `overlay` puts its picture when no `x`/`y` is given.
public enum OverlayAnchor: String, CaseIterable, Sendable {
    case topLeft = "top-left", top, topRight = "top-right", left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// The top-left corner of a `w`×`h` picture anchored in a `W`×`H` frame, `margin` pixels
    /// from the anchored edges.
    func origin(frame W: Int, _ H: Int, picture w: Int, _ h: Int, margin m: Int) -> (x: Int, y: Int) {
        let x: Int, y: Int
        switch self {
        case .topLeft, .left, .bottomLeft: x = m
        case .top, .center, .bottom: x = (W - w) / 2
        case .topRight, .right, .bottomRight: x = W - w - m
        }
        switch self {
        case .topLeft, .top, .topRight: y = m
        case .left, .center, .right: y = (H - h) / 2
        case .bottomLeft, .bottom, .bottomRight: y = H - h - m
        }
        return (x, y)
    }
}

/// `overlay`: a second video or a still image (`imagesrc`) over the main video, alpha blended
/// (straight or premultiplied), at a pixel position or an anchor with a margin, optionally
/// scaled. The main frame is drawn into in place (when nobody else holds it); RGBA over YUV is
/// blended in Y'CbCr (`OverlayKernel`: the overlay is converted once per overlay picture, never
/// the main video). Inputs are aligned by time by the engine (Docs/multi-input.md): by default
/// the output follows `main` and the overlay's last picture stays up.
public final class OverlayNode: RegisteredNode, SynchronizedVideoNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
        name: "overlay",
        doc: "Blends 'overlay' (rgba/bgra: a logo from imagesrc, or a video) over 'main' at x/y or an anchor with a margin, optionally scaled; straight or premultiplied alpha; identical to ffmpeg's overlay for straight alpha (Docs/filters.md).",
        category: .filter,
        inputs: [PortSpec("main", .video(OverlayKernel.mainFormats), doc: "the video drawn on: yuv420p, yuv422p, yuv444p, gray, rgba or bgra"),
                 PortSpec("overlay", .video(OverlayKernel.overlayFormats), doc: "the picture put on top, with its alpha (rgba or bgra)")],
        outputs: [PortSpec("out", .video(OverlayKernel.mainFormats), doc: "main's format, size and times")],
        params: ParamSpec.list([xParam, yParam, anchorParam, marginParam, widthParam, heightParam, scaleParam, alphaParam] + SyncParams.all))
        // both pictures upright, as ffmpeg autorotates its inputs: a logo is placed on what is shown
        info.matchedInputs = [.videoUpright]
        return info
    }()
    static let xParam = Param<Int?>("x", -65536...65536, doc: "left edge of the overlay in main's pixels (negative: cut off at the left); with y, instead of anchor")
    static let yParam = Param<Int?>("y", -65536...65536, doc: "top edge of the overlay in main's pixels (negative: cut off at the top)")
    static let anchorParam = Param<OverlayAnchor?>("anchor", choices: OverlayAnchor.allCases,
                                                   doc: "where the overlay sits when x/y are not given: top-left (the default), top, top-right, left, center, right, bottom-left, bottom, bottom-right")
    static let marginParam = Param<Int>("margin", 0...65536, default: 0, doc: "pixels between the overlay and the anchored edges")
    static let widthParam = Param<Int?>("width", 1...MediaLimits.maxDimension, doc: "scale the overlay to this width (height follows the aspect unless given)")
    static let heightParam = Param<Int?>("height", 1...MediaLimits.maxDimension, doc: "scale the overlay to this height (width follows the aspect unless given)")
    static let scaleParam = Param<Double?>("scale", 0.01...16, doc: "scale the overlay by this factor (instead of width/height)")
    static let alphaParam = Param<OverlayAlpha>("alpha", default: .straight, doc: "how the overlay's colour carries its alpha: straight (PNG, WebP) or premultiplied")

    public let syncPolicy: SyncPolicy
    let position: (x: Int, y: Int)?
    let anchor: OverlayAnchor
    let margin: Int
    let size: (width: Int?, height: Int?, scale: Double?)
    let alpha: OverlayAlpha
    var kernel: OverlayKernel?
    var mainFormat: VideoFormat?
    var outFormat: VideoFormat?
    /// The overlay picture last prepared (held, so its memory is not reused while compared),
    /// and its scaled copy when scaling.
    var lastOverlay: SampleBuffer?
    var scaled: SampleBuffer?
    var scaler: PixelConverter?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        syncPolicy = SyncPolicy(params: p)
        let x = p[Self.xParam], y = p[Self.yParam], anchor = p[Self.anchorParam]
        if (x == nil) != (y == nil) {
            throw NodeFailure("params 'x' and 'y': give both (a position) or neither (an anchor)")
        }
        if let x, let y {
            if anchor != nil { throw NodeFailure("params 'x'/'y' and 'anchor': give a position or an anchor, not both") }
            position = (x, y)
        } else {
            position = nil
        }
        self.anchor = anchor ?? .topLeft
        margin = p[Self.marginParam]
        size = (p[Self.widthParam], p[Self.heightParam], p[Self.scaleParam])
        if size.scale != nil && (size.width != nil || size.height != nil) {
            throw NodeFailure("params 'scale' and 'width'/'height': give a factor or a size, not both")
        }
        alpha = p[Self.alphaParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let ordered = SyncInputOrder.ordered(inputs, in: Self.typeInfo)
        guard ordered.count == 2, let main = ordered[0].format.video, let over = ordered[1].format.video else {
            throw NodeFailure("needs raw video on both 'main' and 'overlay', found \(inputs.map { "\($0.port): \($0.format)" }.joined(separator: ", "))")
        }
        let target = try scaledSize(over.width, over.height)
        if size.width != nil || size.height != nil || size.scale != nil {
            var to = over
            to.width = target.width
            to.height = target.height
            try PixelConverter.validate(from: over, to: to)
        }
        var out = main
        out.timeBase = try VideoSynchronizer(formats: [main, over], names: ordered.map(\.port), policy: syncPolicy).timeBase
        mainFormat = main
        outFormat = out
        kernel = OverlayKernel(alpha: alpha, color: OverlayColor(main))
        return [.video(out)]
    }

    /// The overlay's size after `width`/`height`/`scale` (aspect kept where one side is given).
    func scaledSize(_ w: Int, _ h: Int) throws -> (width: Int, height: Int) {
        var tw = w, th = h
        if let s = size.scale {
            tw = Int((Double(w) * s).rounded()); th = Int((Double(h) * s).rounded())
        } else if let W = size.width, let H = size.height {
            tw = W; th = H
        } else if let W = size.width {
            tw = W; th = Int((Double(h) * Double(W) / Double(w)).rounded())
        } else if let H = size.height {
            th = H; tw = Int((Double(w) * Double(H) / Double(h)).rounded())
        }
        tw = max(1, tw); th = max(1, th)
        if let problem = MediaLimits.frameSizeProblem(width: tw, height: th) {
            throw NodeFailure("the scaled overlay's \(problem)")
        }
        return (tw, th)
    }

    public func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        guard let kernel else { throw NodeFailure("overlay: not configured") }
        guard let frame = synced.takeFirst() else { return }
        if let over = synced.buffer(1), let main = frame.planes {
            let picture = try overlayPicture(over)
            let w = picture.width, h = picture.height
            let at = position ?? anchor.origin(frame: main.width, main.height, picture: w, h, margin: margin)
            if changed(over), !main.format.isRGB {
                try kernel.prepare(picture, mainFormat: main.format, x: at.x, y: at.y)
            }
            lastOverlay = over
            try kernel.blend(picture, onto: main, x: at.x, y: at.y)
        }
        try output.send(consume frame)
    }

    /// Whether `b` is another picture than the one last prepared (the same memory is the same
    /// picture: sent buffers never change, and the held reference keeps the memory from reuse).
    func changed(_ b: SampleBuffer) -> Bool {
        guard let last = lastOverlay, case .video(let a) = last.payload, case .video(let m) = b.payload else { return true }
        return a !== m
    }

    /// The overlay's planes, scaled when asked (once per picture).
    func overlayPicture(_ b: SampleBuffer) throws -> FramePlanes {
        guard let planes = b.planes, let format = b.videoFormat else { throw NodeFailure("input 'overlay': a buffer without planes") }
        guard size.width != nil || size.height != nil || size.scale != nil else { return planes }
        if !changed(b), let scaled, let p = scaled.planes { return p }
        let target = try scaledSize(format.width, format.height)
        var to = format
        to.width = target.width
        to.height = target.height
        if scaler == nil || scaler!.source != format || scaler!.destination != to {
            scaler = try PixelConverter(from: format, to: to)
        }
        let out = WritableBuffer(frame: to)
        try scaler!.convert(source: planes, destination: out.planes!)
        let frozen = out.freeze()
        scaled = frozen
        return frozen.planes!
    }
}
