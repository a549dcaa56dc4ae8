import MediaGraphCore
import MediaGraphNodes

/// `threshold`: each colour channel becomes 255 where it is at least `level`, 0 below; alpha kept.
final class Threshold: VideoNode, RegisteredNode {
    static let typeInfo = NodeTypeInfo(
        name: "threshold", doc: "Each colour channel to 0 or 255 at a level.", category: .filter,
        inputs: [PortSpec("in", .video([.rgba, .bgra]), doc: "raw video")],
        outputs: [PortSpec("out", .video([.rgba, .bgra]), doc: "raw video, same format")],
        params: [levelParam.spec])
    /// Declared once: name, range, default, doc (validation checks the range before `init`).
    static let levelParam = Param<Int>("level", 0...255, default: 128, doc: "lowest value that becomes 255")

    let level: UInt8

    init(setup: NodeSetup) throws {
        level = UInt8(clamping: setup.params[Self.levelParam])
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let level = self.level
        // In place when this node holds the only reference, into a new frame otherwise.
        try output.sendTransformed(consume frame) { src, dst, _ in
            for y in 0..<src.height {
                let s = src.data0 + y * src.stride0, d = dst.data0 + y * dst.stride0
                for x in 0..<src.width {
                    for c in 0..<3 { d[4 * x + c] = s[4 * x + c] >= level ? 255 : 0 }
                    d[4 * x + 3] = s[4 * x + 3]
                }
            }
        }
    }
}
