import MediaGraphCore
import MediaGraphKernels

/// `unsharp`: ffmpeg 5.1's unsharp mask, the same bytes: each plane minus its binomial blur,
/// scaled by an amount (positive sharpens, negative blurs), luma and chroma with their own sizes
/// and amounts (`unsharp=lx:ly:la:cx:cy:ca`). In place when the frame is not shared.
public final class UnsharpNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p]
    public static let typeInfo = NodeTypeInfo(
        name: "unsharp",
        doc: "Sharpens (positive amount) or blurs (negative) luma and chroma with an unsharp mask over a binomial blur of an odd size (ffmpeg's unsharp=lx:ly:la:cx:cy:ca, the same bytes).",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video")],
        outputs: [PortSpec("out", .video(formats), doc: "the sharpened or blurred frames")],
        params: ParamSpec.list(lumaX, lumaY, lumaAmount, chromaX, chromaY, chromaAmount))
    static let lumaX = Param<Int>("luma-x", 3...23, default: 5, doc: "width of the luma blur in pixels (odd)")
    static let lumaY = Param<Int>("luma-y", 3...23, default: 5, doc: "height of the luma blur in pixels (odd)")
    static let lumaAmount = Param<Double>("luma-amount", -2...5, default: 1, doc: "luma strength: above 0 sharpens, below 0 blurs, 0 leaves luma alone")
    static let chromaX = Param<Int>("chroma-x", 3...23, default: 5, doc: "width of the chroma blur in chroma samples (odd)")
    static let chromaY = Param<Int>("chroma-y", 3...23, default: 5, doc: "height of the chroma blur in chroma samples (odd)")
    static let chromaAmount = Param<Double>("chroma-amount", -2...5, default: 0, doc: "chroma strength, as luma-amount (0: chroma unchanged)")

    let luma: UnsharpKernel, chroma: UnsharpKernel
    /// Horizontal sums of the largest plane, kept from frame to frame.
    var scratch: UnsafeMutablePointer<UInt32>?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        for (x, y) in [(Self.lumaX, Self.lumaY), (Self.chromaX, Self.chromaY)] {
            for s in [x, y] where p[s] % 2 == 0 {
                throw NodeFailure("param '\(s.name)': the size must be odd (3, 5, …, 23), found \(p[s])")
            }
            if (p[x] / 2 + p[y] / 2) * 2 > UnsharpKernel.maxScalebits {
                throw NodeFailure("params '\(x.name)' and '\(y.name)': \(p[x])x\(p[y]) is too large a blur; (x/2 + y/2)·2 must be at most \(UnsharpKernel.maxScalebits) (as in ffmpeg), e.g. 13x11")
            }
        }
        luma = UnsharpKernel(sizeX: p[Self.lumaX], sizeY: p[Self.lumaY], amount: p[Self.lumaAmount])
        chroma = UnsharpKernel(sizeX: p[Self.chromaX], sizeY: p[Self.chromaY], amount: p[Self.chromaAmount])
    }

    deinit { scratch?.deallocate() }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        scratch?.deallocate()
        scratch = .allocate(capacity: max(1, v.width * v.height))
        return [inputs[0].format]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let scratch, luma.amount != 0 || chroma.amount != 0 else { return try output.send(consume frame) }
        try output.sendTransformed(consume frame) { src, dst, _ in
            luma.run(plane: 0, source: src, destination: dst, scratch: scratch)
            chroma.run(plane: 1, source: src, destination: dst, scratch: scratch)
            chroma.run(plane: 2, source: src, destination: dst, scratch: scratch)
        }
    }
}
