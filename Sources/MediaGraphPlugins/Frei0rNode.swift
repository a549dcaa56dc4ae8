import CMediaGraphPlugin
import MediaGraphCore

/// A graph node running one frei0r filter instance. frei0r reads and writes whole frames of
/// tightly packed 32-bit pixels, never in place: frames whose rows are padded go through
/// scratch frames allocated once (`Frei0rPackedFrame`); others are passed directly.
final class Frei0rNode: VideoNode {
    let plugin: Frei0rPlugin
    let id: String
    let params: ParamValues
    var instance: UnsafeMutableRawPointer?
    var packedIn: Frei0rPackedFrame?
    var packedOut: Frei0rPackedFrame?

    init(plugin: Frei0rPlugin, setup: NodeSetup) {
        self.plugin = plugin
        id = setup.id
        params = setup.params
    }

    deinit {
        if let instance { plugin.api.destruct(instance) }
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let origin = "frei0r plugin \(plugin.path), node \(plugin.typeName) '\(id)'"
        guard let v = inputs.first?.format.video else { throw NodeFailure("\(origin): expected raw video") }
        instance = try Frei0rInstance.create(plugin, params: params, width: v.width, height: v.height, origin: origin)
        packedIn = Frei0rPackedFrame(width: v.width, height: v.height)
        packedOut = Frei0rPackedFrame(width: v.width, height: v.height)
        return [inputs[0].format]
    }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let inst = instance, let update = plugin.api.update, let packedIn, let packedOut else {
            throw NodeFailure("frei0r node \(plugin.typeName) '\(id)': process before configure")
        }
        let vf = frame.format, src = frame.planes
        var out = WritableBuffer(frame: vf, timeBase: frame.timeBase)
        out.copyMetadata(from: frame.buffer)
        let dst = out.planes!
        update(inst, Frei0rTime.seconds(pts: frame.pts, timeBase: frame.timeBase), packedIn.input(src), packedOut.output(dst))
        packedOut.finishOutput(dst)
        _ = consume frame
        try output.send(consume out)
    }
}

/// Creating a frei0r instance for a frame size and setting the params a graph gives.
enum Frei0rInstance {
    /// Checks the size (multiples of 8, as frei0r's specification lets effects assume),
    /// constructs an instance and sets the given params; like ffmpeg, only the params the graph
    /// gives are set, the others keep the plugin's value.
    static func create(_ plugin: Frei0rPlugin, params: ParamValues, width: Int, height: Int, origin: String) throws -> UnsafeMutableRawPointer {
        let m = Frei0rPlugin.sizeMultiple
        guard width > 0, height > 0, width % m == 0, height % m == 0 else {
            throw NodeFailure("\(origin): frame size \(width)x\(height) is not a multiple of \(m) in both directions, which frei0r effects require; put a scale node before it (e.g. to \((width + m - 1) / m * m)x\((height + m - 1) / m * m))")
        }
        guard let inst = plugin.api.construct(UInt32(width), UInt32(height)) else {
            throw NodeFailure("\(origin): f0r_construct failed for \(width)x\(height)")
        }
        for (k, kind) in plugin.paramKinds.enumerated() {
            guard let value = params[plugin.info.params[k].name] else { continue }
            Frei0rParam.write(plugin.api, inst, index: Int32(k), kind: kind, value: value)
        }
        return inst
    }
}
