import CMediaGraphPlugin
import MediaGraphCore

/// A graph node running one frei0r filter instance. frei0r reads and writes whole frames of
/// tightly packed 32-bit pixels, never in place: frames whose rows are padded go through two
/// scratch buffers allocated once; others are passed directly.
final class Frei0rNode: VideoNode {
    let plugin: Frei0rPlugin
    let id: String
    let params: ParamValues
    var instance: UnsafeMutableRawPointer?
    var scratchIn: UnsafeMutablePointer<UInt32>?
    var scratchOut: UnsafeMutablePointer<UInt32>?

    init(plugin: Frei0rPlugin, setup: NodeSetup) {
        self.plugin = plugin
        id = setup.id
        params = setup.params
    }

    deinit {
        if let instance { plugin.api.destruct(instance) }
        scratchIn?.deallocate()
        scratchOut?.deallocate()
    }

    func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let origin = "frei0r plugin \(plugin.path), node \(plugin.typeName) '\(id)'"
        guard let v = inputs.first?.format.video else { throw NodeFailure("\(origin): expected raw video") }
        let m = Frei0rPlugin.sizeMultiple
        guard v.width > 0, v.height > 0, v.width % m == 0, v.height % m == 0 else {
            throw NodeFailure("\(origin): frame size \(v.width)x\(v.height) is not a multiple of \(m) in both directions, which frei0r effects require; put a scale node before it (e.g. to \((v.width + m - 1) / m * m)x\((v.height + m - 1) / m * m))")
        }
        guard let inst = plugin.api.construct(UInt32(v.width), UInt32(v.height)) else {
            throw NodeFailure("\(origin): f0r_construct failed for \(v.width)x\(v.height)")
        }
        instance = inst
        for (k, spec) in plugin.info.params.enumerated() {
            // Like ffmpeg, set only the params the graph gives; the others keep the plugin's value.
            guard let value = params[spec.name] else { continue }
            Frei0rParam.write(plugin.api, inst, index: Int32(k), kind: plugin.paramKinds[k], value: value)
        }
        return [inputs[0].format]
    }

    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let inst = instance else {
            throw NodeFailure("frei0r node \(plugin.typeName) '\(id)': process before configure")
        }
        let vf = frame.format, src = frame.planes
        var out = WritableBuffer(frame: vf, timeBase: frame.timeBase)
        out.copyMetadata(from: frame.buffer)
        let dst = out.planes!
        // frei0r's time is in seconds (the spec); unknown pts count as 0.
        let time = frame.pts == SampleBuffer.noTime ? 0 : Double(frame.pts) * Double(frame.timeBase.num) / Double(frame.timeBase.den)
        let rowBytes = vf.width * 4
        if src.stride0 == rowBytes && dst.stride0 == rowBytes {
            plugin.update(inst, time, UnsafeRawPointer(src.data0).assumingMemoryBound(to: UInt32.self),
                              UnsafeMutableRawPointer(dst.data0).assumingMemoryBound(to: UInt32.self))
        } else {
            if scratchIn == nil {   // once: rows padded in the pool
                scratchIn = .allocate(capacity: vf.width * vf.height)
                scratchOut = .allocate(capacity: vf.width * vf.height)
            }
            let si = scratchIn!, so = scratchOut!
            let sIn = UnsafeMutableRawPointer(si), sOut = UnsafeMutableRawPointer(so)
            for y in 0..<vf.height { (sIn + y * rowBytes).copyMemory(from: src.data0 + y * src.stride0, byteCount: rowBytes) }
            plugin.update(inst, time, si, so)
            for y in 0..<vf.height { (dst.data0 + y * dst.stride0).update(from: sOut.assumingMemoryBound(to: UInt8.self) + y * rowBytes, count: rowBytes) }
        }
        _ = consume frame
        try output.send(consume out)
    }
}

