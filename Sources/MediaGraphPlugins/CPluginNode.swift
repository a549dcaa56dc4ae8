import CMediaGraphPlugin
import MediaGraphCore
import MediaGraphPluginKit

/// A graph node running one instance of a C plugin's node type: it creates the instance when
/// the input format is known, sets every param, then calls `process` for each frame (in place
/// when the plugin allows it and the frame is unshared, into a new pooled frame otherwise).
final class CPluginNode: VideoNode {
    let type: CPluginNodeType
    let id: String
    let params: ParamValues
    var instance: UnsafeMutableRawPointer?
    var frameNumber = 0
    var error = mg_error()

    init(type: CPluginNodeType, setup: NodeSetup) throws {
        self.type = type
        id = setup.id
        frameNumber = setup.firstFrameNumber
        params = setup.params
    }

    deinit {
        if let instance { type.desc.destroy(instance) }
    }

    /// "plugin FILE, node TYPE 'id'": where a message comes from.
    private var origin: String { "plugin \(type.path), node \(type.info.name) '\(id)'" }

    private func failure(_ what: String) -> NodeFailure {
        let msg = withUnsafeBytes(of: &error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return NodeFailure("\(origin): \(what)\(msg.isEmpty ? " (the plugin gave no message)" : ": " + msg)")
    }

    private func clearError() { error.message.0 = 0 }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs.first?.format.video else { throw NodeFailure("\(origin): expected raw video") }
        let d = type.desc
        clearError()
        guard let inst = d.create(d.node_data, Int32(v.width), Int32(v.height), FormatCode.code(v.pixelFormat), &error) else {
            throw failure("create failed for \(v.width)x\(v.height) \(v.pixelFormat)")
        }
        instance = inst
        if let refused = type.setParams(params, on: inst, error: &error) { throw failure("param '\(refused)' was refused") }
        return [inputs[0].format]
    }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let inst = instance else { throw NodeFailure("\(origin): process before configure") }
        let d = type.desc
        let n = frameNumber
        frameNumber += 1
        let pts = frame.pts, tb = frame.timeBase
        let inPlaceAllowed = d.flags & UInt32(MG_NODE_IN_PLACE) != 0
        if inPlaceAllowed {
            try output.sendTransformed(consume frame) { src, dst, _ in
                try run(d, inst, src, dst, pts: pts, timeBase: tb, frame: n)
            }
        } else {
            // The plugin may not write over its input: always a fresh frame from the pool.
            let vf = frame.format, src = frame.planes
            var out = WritableBuffer(frame: vf, timeBase: tb)
            out.copyMetadata(from: frame.buffer)
            try run(d, inst, src, out.planes!, pts: pts, timeBase: tb, frame: n)
            _ = consume frame
            try output.send(consume out)
        }
    }

    @inline(__always)
    private func run(_ d: mg_node_desc, _ inst: UnsafeMutableRawPointer, _ src: FramePlanes, _ dst: FramePlanes,
                     pts: Int64, timeBase: Rational, frame n: Int) throws {
        var inFrame = FormatCode.frame(src, pts: pts, timeBase: timeBase)
        var outFrame = FormatCode.frame(dst, pts: pts, timeBase: timeBase)
        clearError()
        if d.process(inst, &inFrame, &outFrame, &error) != 0 {
            throw failure("process failed at frame \(n)")
        }
    }

    func finish(output: NodeOutput) throws {
        guard let inst = instance, let flush = type.desc.flush else { return }
        clearError()
        if flush(inst, &error) != 0 { throw failure("flush failed") }
    }
}
