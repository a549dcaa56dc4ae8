// The code of Docs/writing-a-filter.md. Every ```swift block of that document appears in this
// file verbatim (DocsTests checks), so the walk-through compiles and its filters are tested.
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes

// MARK: vignette

/// `vignette`: darkens towards the corners, v' = v · max(0, 1 − strength · r²), where r² is the
/// squared distance from the centre with the corners at 1; alpha kept.
final class Vignette: VideoNode, RegisteredNode {
    static let typeInfo = NodeTypeInfo(
        name: "vignette", doc: "Darkens towards the corners.", category: .filter,
        inputs: [PortSpec("in", .video([.rgba, .bgra]), doc: "raw video")],
        outputs: [PortSpec("out", .video([.rgba, .bgra]), doc: "raw video, same format")],
        params: [strengthParam.spec])
    /// Declared once: name, range, default, doc; `setup.params[Vignette.strengthParam]` reads it.
    static let strengthParam = Param<Double>("strength", 0...1, default: 0.5, doc: "darkening at the corners")

    let strength: Double

    init(setup: NodeSetup) throws {
        strength = setup.params[Self.strengthParam]
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let strength = self.strength
        // In place when this node holds the only reference, into a new frame otherwise.
        try output.sendTransformed(consume frame) { src, dst, _ in
            let cx = Double(src.width) / 2, cy = Double(src.height) / 2
            for y in 0..<src.height {
                let dy = (Double(y) + 0.5 - cy) / cy
                let s = src.data0 + y * src.stride0, d = dst.data0 + y * dst.stride0
                for x in 0..<src.width {
                    let dx = (Double(x) + 0.5 - cx) / cx
                    let f = max(0, 1 - strength * (dx * dx + dy * dy) / 2)
                    for c in 0..<3 { d[4 * x + c] = UInt8((Double(s[4 * x + c]) * f).rounded()) }
                    d[4 * x + 3] = s[4 * x + 3]
                }
            }
        }
    }
}

// MARK: frame differencing

/// `framediff`: |this frame − previous frame| on the luma plane (chroma set to 128, grey), so
/// only what moved stays visible. The first frame comes out black.
final class FrameDifference: VideoNode, RegisteredNode {
    static let typeInfo = NodeTypeInfo(
        name: "framediff", doc: "Shows what changed since the previous frame.", category: .filter,
        inputs: [PortSpec("in", .video([.yuv420p, .gray]), doc: "raw video")],
        outputs: [PortSpec("out", .video([.yuv420p, .gray]), doc: "raw video, same format")])

    /// The previous frame's luma, packed; allocated once the size is known.
    var previous: UnsafeMutablePointer<UInt8>?
    var seenFirst = false

    init(setup: NodeSetup) throws {}

    deinit { previous?.deallocate() }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("framediff: expected raw video") }
        previous?.deallocate()
        previous = .allocate(capacity: v.width * v.height)
        seenFirst = false
        return [inputs[0].format]
    }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let prev = previous else { throw NodeFailure("framediff: not configured") }
        let first = !seenFirst
        seenFirst = true
        try output.sendTransformed(consume frame) { src, dst, _ in
            for y in 0..<src.height {
                let s = src.data0 + y * src.stride0, d = dst.data0 + y * dst.stride0
                let p = prev + y * src.width
                for x in 0..<src.width {
                    let v = s[x]   // read before writing: source and destination may be one
                    d[x] = first ? 0 : (v > p[x] ? v - p[x] : p[x] - v)
                    p[x] = v
                }
            }
            for plane in 1..<dst.planeCount {
                let size = dst.planeSize(plane)
                for y in 0..<size.height { (dst.data(plane) + y * dst.stride(plane)).update(repeating: 128, count: size.width) }
            }
        }
    }
}

// MARK: a colour filter built on a kernel

/// `warmth`: white balance, r' = r + 0.1·amount, b' = b − 0.1·amount (alpha kept).
public final class WarmthFilter: KernelFilter, RegisteredNode {
    static let amount = Param<Double>("amount", -1...1, default: 0, live: true, doc: "> 0 warmer, < 0 cooler")
    public static let typeInfo = filterInfo("warmth", "Warmer or cooler: r' = r + 0.1·amount, b' = b − 0.1·amount.",
                                            formats: ColorMatrixKernel.formats, params: [amount])
    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        let a = 0.1 * p[amount]
        return ColorMatrixKernel(try .matrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], offset: [a, 0, -a, 0]))
    }
}

// MARK: registering and running

/// The built-in node types plus ours.
func makeRegistry() -> NodeRegistry {
    let registry = BuiltinNodes.makeRegistry()
    registry.add(Vignette.self)
    registry.add(FrameDifference.self)
    registry.add(WarmthFilter.self)
    return registry
}

/// testsrc → vignette → rawsink, built and run in code (validated exactly as a graph file is).
func runVignette(strength: Double, to path: String) throws {
    var graph = GraphSpec()
    graph.add("src", "testsrc", [("width", .int(320)), ("height", .int(240)), ("frames", .int(3)), ("format", .str("rgba"))])
    graph.add("vignette", "vignette", [("strength", .number(strength, nil))])
    graph.add("out", "rawsink", [("path", .str(path))])
    graph.chain("src", "vignette", "out")
    let validated = try GraphBuilder.build(graph, registry: makeRegistry())
    try GraphRunner(graph: validated).run()
}

/// A graph file using `framediff`, read from JSON text and run.
func runFrameDifference(input: String, width: Int, height: Int, to path: String) throws {
    let json = """
    {"nodes": {"src": {"type": "rawsrc", "params": {"path": "\(input)", "width": \(width), "height": \(height)}},
               "diff": {"type": "framediff"},
               "out": {"type": "rawsink", "params": {"path": "\(path)"}}},
     "chains": [["src", "diff", "out"]]}
    """
    let spec = try GraphFile.parse(text: json, file: "framediff.json")
    try GraphRunner(graph: try GraphBuilder.build(spec, registry: makeRegistry())).run()
}

/// testsrc → warmth → rawsink.
func runWarmth(amount: Double, to path: String) throws {
    var graph = GraphSpec()
    graph.add("src", "testsrc", [("width", .int(64)), ("height", .int(48)), ("frames", .int(2)), ("format", .str("rgba"))])
    graph.add("warm", "warmth", [("amount", .number(amount, nil))])
    graph.add("out", "rawsink", [("path", .str(path))])
    graph.chain("src", "warm", "out")
    try GraphRunner(graph: try GraphBuilder.build(graph, registry: makeRegistry())).run()
}
