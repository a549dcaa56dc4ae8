import CMediaGraphPlugin
import MediaGraphCore
import MediaGraphPluginKit

/// A graph node running a version-2 C plugin node type: N video inputs aligned by time by the
/// engine's synchroniser (one input: frames one by one), and an output whose size and format
/// the plugin's `create_n` chooses from the inputs' formats. Each output time, `process_n` gets
/// the current frame of every input (NULL where an input has none) and a fresh output frame.
final class CPluginNodeN: SynchronizedVideoNode {
    let type: CPluginNodeType
    let id: String
    let params: ParamValues
    let syncPolicy: SyncPolicy
    var instance: UnsafeMutableRawPointer?
    var outFormat: VideoFormat?
    var frameNumber = 0
    var error = mg_error()
    /// The C frames and the pointer array `process_n` receives: allocated once, filled per call.
    let frames: UnsafeMutablePointer<mg_frame>
    let framePointers: UnsafeMutablePointer<UnsafePointer<mg_frame>?>

    var inputCount: Int { type.inputNames.count }
    var synchronizesInputs: Bool { inputCount > 1 }

    init(type: CPluginNodeType, setup: NodeSetup) {
        self.type = type
        id = setup.id
        frameNumber = setup.firstFrameNumber
        params = setup.params
        syncPolicy = type.inputNames.count > 1 ? SyncPolicy(params: setup.params) : SyncPolicy()
        let n = type.inputNames.count
        frames = .allocate(capacity: n)
        frames.initialize(repeating: mg_frame(), count: n)
        framePointers = .allocate(capacity: n)
        framePointers.initialize(repeating: nil, count: n)
    }

    deinit {
        if let instance { type.desc.destroy(instance) }
        frames.deallocate()
        framePointers.deallocate()
    }

    /// "plugin FILE, node TYPE 'id'": where a message comes from.
    private var origin: String { "plugin \(type.path), node \(type.info.name) '\(id)'" }

    private func failure(_ what: String) -> NodeFailure {
        let msg = withUnsafeBytes(of: &error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return NodeFailure("\(origin): \(what)\(msg.isEmpty ? " (the plugin gave no message)" : ": " + msg)")
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let ordered = SyncInputOrder.ordered(inputs, in: type.info)
        guard ordered.count == inputCount else {
            throw NodeFailure("\(origin): inputs \(type.inputNames.joined(separator: ", ")) must all be connected; connected: \(ordered.map(\.port).joined(separator: ", "))")
        }
        var formats: [VideoFormat] = []
        for i in ordered {
            guard let v = i.format.video else { throw NodeFailure("\(origin): input '\(i.port)': expected raw video, found \(i.format)") }
            formats.append(v)
        }
        let cInputs = formats.map { mg_video_format(format: FormatCode.code($0.pixelFormat), width: Int32($0.width), height: Int32($0.height)) }
        let d = type.desc
        error.message.0 = 0
        let made = cInputs.withUnsafeBufferPointer { d.create_n(d.node_data, $0.baseAddress, Int32(inputCount), &error) }
        guard let inst = made else {
            throw failure("create_n failed for inputs \(zip(ordered, formats).map { "\($0.port) \($1.width)x\($1.height) \($1.pixelFormat)" }.joined(separator: ", "))")
        }
        instance = inst
        if let refused = type.setParams(params, on: inst, error: &error) { throw failure("param '\(refused)' was refused") }
        var cOut = cInputs[0]
        if let outputFormat = d.output_format {
            error.message.0 = 0
            let status = cInputs.withUnsafeBufferPointer { outputFormat(inst, $0.baseAddress, Int32(inputCount), &cOut, &error) }
            if status != 0 { throw failure("output_format failed") }
        }
        // the output format comes from the plugin: checked like any untrusted declaration
        guard let pf = FormatCode.format(cOut.format) else {
            throw NodeFailure("\(origin): output_format set the pixel format to code \(cOut.format); expected an mg_pixel_format (0…5)")
        }
        if let why = MediaLimits.frameSizeProblem(width: Int(cOut.width), height: Int(cOut.height)) {
            throw NodeFailure("\(origin): output_format set the output size to \(cOut.width)x\(cOut.height): \(why)")
        }
        var out = formats[0]
        out.pixelFormat = pf
        out.width = Int(cOut.width)
        out.height = Int(cOut.height)
        if pf.isRGB != formats[0].pixelFormat.isRGB { out.range = pf.isRGB ? .full : .limited }
        if inputCount > 1 {
            // the synchroniser's clock (and its check of the offsets)
            out.timeBase = try VideoSynchronizer(formats: formats, names: ordered.map(\.port), policy: syncPolicy).timeBase
        }
        outFormat = out
        return [.video(out)]
    }

    func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        for k in 0..<inputCount {
            if let b = synced.buffer(k), let p = b.planes {
                frames[k] = FormatCode.frame(p, pts: b.pts, timeBase: b.timeBase)
                framePointers[k] = UnsafePointer(frames + k)
            } else {
                framePointers[k] = nil
            }
        }
        try run(pts: synced.pts, timeBase: synced.timeBase, output: output) { synced.newFrame($0) }
    }

    /// One input: frames one by one, no synchroniser.
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let p = buffer.planes else { throw NodeFailure("\(origin): expected a raw video frame") }
        frames[0] = FormatCode.frame(p, pts: buffer.pts, timeBase: buffer.timeBase)
        framePointers[0] = UnsafePointer(frames)
        let pts = buffer.pts, tb = buffer.timeBase, metadata = buffer.metadata
        try run(pts: pts, timeBase: tb, output: output) { format in
            var w = WritableBuffer(frame: format, timeBase: tb)
            w.metadata = metadata
            w.metadata.format = .video(format)
            return w
        }
        _ = consume buffer
    }

    private func run(pts: Int64, timeBase: Rational, output: NodeOutput, newFrame: (VideoFormat) -> WritableBuffer) throws {
        guard let inst = instance, let outFormat else { throw NodeFailure("\(origin): process before configure") }
        let n = frameNumber
        frameNumber += 1
        let out = newFrame(outFormat)
        var outFrame = FormatCode.frame(out.planes!, pts: pts, timeBase: timeBase)
        error.message.0 = 0
        if type.desc.process_n(inst, framePointers, Int32(inputCount), &outFrame, &error) != 0 {
            throw failure("process failed at frame \(n)")
        }
        try output.send(consume out)
    }

    func finish(output: NodeOutput) throws {
        guard let inst = instance, let flush = type.desc.flush else { return }
        error.message.0 = 0
        if flush(inst, &error) != 0 { throw failure("flush failed") }
    }
}
