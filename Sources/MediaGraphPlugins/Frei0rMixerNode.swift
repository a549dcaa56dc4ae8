import CMediaGraphPlugin
import MediaGraphCore

/// A graph node running one frei0r mixer instance (two or three inputs, `f0r_update2`). The
/// engine's synchroniser hands it, per output time, the current frame of each input (`end`,
/// `offsets`, `ended` as on every multi-input node); an input that has no frame at that time (not
/// started yet, or ended and hidden) is passed to frei0r as a frame of zeros (transparent
/// black). The graph brings every input to the first one's size and pixel format (visible
/// `scale`/`convert` nodes, `matchedInputs`).
final class Frei0rMixerNode: SynchronizedVideoNode {
    let plugin: Frei0rPlugin
    let id: String
    let params: ParamValues
    let syncPolicy: SyncPolicy
    var instance: UnsafeMutableRawPointer?
    var outFormat: VideoFormat?
    /// One per input, then one for the output.
    var packed: [Frei0rPackedFrame] = []

    init(plugin: Frei0rPlugin, setup: NodeSetup) {
        self.plugin = plugin
        id = setup.id
        params = setup.params
        syncPolicy = SyncPolicy(params: setup.params)
    }

    deinit {
        if let instance { plugin.api.destruct(instance) }
    }

    private var origin: String { "frei0r plugin \(plugin.path), node \(plugin.typeName) '\(id)'" }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let ordered = SyncInputOrder.ordered(inputs, in: plugin.info)
        let n = plugin.kind.inputCount
        guard ordered.count == n else {
            throw NodeFailure("\(origin): a \(n)-input mixer needs inputs \((0..<n).map(Frei0rPlugin.inputName).joined(separator: ", ")); connected: \(ordered.map(\.port).joined(separator: ", "))")
        }
        var formats: [VideoFormat] = []
        for i in ordered {
            guard let v = i.format.video else { throw NodeFailure("\(origin): input '\(i.port)': expected raw video, found \(i.format)") }
            formats.append(v)
        }
        let first = formats[0], firstPort = ordered[0].port
        for (k, f) in formats.enumerated() where f.width != first.width || f.height != first.height || f.pixelFormat != first.pixelFormat {
            throw NodeFailure("\(origin): input '\(ordered[k].port)' is \(f.pixelFormat) \(f.width)x\(f.height) but '\(firstPort)' is \(first.pixelFormat) \(first.width)x\(first.height); frei0r mixes frames of one size and format (put a scale or convert node before it)")
        }
        instance = try Frei0rInstance.create(plugin, params: params, width: first.width, height: first.height, origin: origin)
        packed = (0...n).map { _ in Frei0rPackedFrame(width: first.width, height: first.height) }
        var out = first
        // the synchroniser's clock (and its check of the offsets)
        out.timeBase = try VideoSynchronizer(formats: formats, names: ordered.map(\.port), policy: syncPolicy).timeBase
        outFormat = out
        return [.video(out)]
    }

    func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        guard let inst = instance, let update2 = plugin.api.update2, let outFormat else {
            throw NodeFailure("\(origin): process before configure")
        }
        let n = plugin.kind.inputCount
        // no array per frame: three pointers, the third NULL for a two-input mixer
        func frame(_ k: Int) throws -> UnsafePointer<UInt32>? {
            guard k < n else { return nil }
            guard let p = synced.planes(k) else { return packed[k].zeros() }
            guard p.width == outFormat.width && p.height == outFormat.height && p.format == outFormat.pixelFormat else {
                throw NodeFailure("\(origin): input \(Frei0rPlugin.inputName(k)) changed to \(p.format) \(p.width)x\(p.height) while running; the mixer was configured for \(outFormat.pixelFormat) \(outFormat.width)x\(outFormat.height)")
            }
            return packed[k].input(p)
        }
        let in1 = try frame(0), in2 = try frame(1), in3 = try frame(2)
        let out = synced.newFrame(outFormat)
        let dst = out.planes!
        update2(inst, Frei0rTime.seconds(pts: synced.pts, timeBase: synced.timeBase), in1, in2, in3, packed[n].output(dst))
        packed[n].finishOutput(dst)
        try output.send(consume out)
    }
}
