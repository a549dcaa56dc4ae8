import CMediaGraphPlugin
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// The version-2 C declaration of a `PluginMixer` type: its callbacks unbox the Swift objects
/// handed through the interface as opaque pointers.
enum MixerExport {
    static func nodeDescriptor(_ type: PluginMixer.Type) -> mg_node_desc {
        var n = mg_node_desc()
        n.name = UnsafePointer(strdup(type.name))
        n.doc = UnsafePointer(strdup(type.doc))
        n.formats = UnsafePointer(PluginExport.formatCodes(type.formats))
        n.format_count = Int32(type.formats.count)
        n.params = UnsafePointer(PluginExport.paramDescriptors(type.params))
        n.param_count = Int32(type.params.count)
        n.flags = type.sameInputSize ? UInt32(MG_NODE_SAME_INPUT_SIZE) : 0
        n.node_data = Unmanaged.passRetained(MixerType(type)).toOpaque()
        n.input_count = Int32(type.inputNames.count)
        let names = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(1, type.inputNames.count))
        for (k, name) in type.inputNames.enumerated() { names[k] = UnsafePointer(strdup(name)) }
        n.input_names = UnsafePointer(names)
        n.create_n = { data, inputs, count, err in
            let t = Unmanaged<MixerType>.fromOpaque(data!).takeUnretainedValue().type
            guard let formats = MixerExport.formats(inputs, count) else {
                Message.write("bad input format description", to: err)
                return nil
            }
            do {
                let mixer = try t.init(inputs: formats)
                return Unmanaged.passRetained(MixerInstance(mixer, params: t.params.map(\.name), inputs: formats)).toOpaque()
            } catch {
                Message.write("\(error)", to: err)
                return nil
            }
        }
        n.set_param = { inst, index, value, err in
            let box = Unmanaged<MixerInstance>.fromOpaque(inst!).takeUnretainedValue()
            guard let value, index >= 0, Int(index) < box.params.count else {
                Message.write("no param #\(index)", to: err)
                return 1
            }
            do { try box.mixer.set(box.params[Int(index)], PluginExport.value(value)); return 0 } catch {
                Message.write("\(error)", to: err)
                return 1
            }
        }
        n.output_format = { inst, _, _, output, err in
            let box = Unmanaged<MixerInstance>.fromOpaque(inst!).takeUnretainedValue()
            do {
                let f = try box.mixer.outputFormat(inputs: box.inputs)
                output?.pointee = mg_video_format(format: FormatCode.code(f.format), width: Int32(clamping: f.width), height: Int32(clamping: f.height))
                return 0
            } catch {
                Message.write("\(error)", to: err)
                return 1
            }
        }
        n.process_n = { inst, inputs, count, output, err in
            let box = Unmanaged<MixerInstance>.fromOpaque(inst!).takeUnretainedValue()
            guard let output, let dst = FormatCode.planes(output.pointee) else {
                Message.write("bad output frame description", to: err)
                return 1
            }
            do {
                try box.mixer.process(PluginInputFrames(frames: inputs, count: Int(count)), dst, pts: output.pointee.pts)
                return 0
            } catch {
                Message.write("\(error)", to: err)
                return 1
            }
        }
        n.flush = { inst, err in
            let box = Unmanaged<MixerInstance>.fromOpaque(inst!).takeUnretainedValue()
            do { try box.mixer.flush(); return 0 } catch {
                Message.write("\(error)", to: err)
                return 1
            }
        }
        n.destroy = { inst in
            if let inst { Unmanaged<MixerInstance>.fromOpaque(inst).release() }
        }
        return n
    }

    /// The host's input formats, or nil when one has no known pixel format.
    static func formats(_ inputs: UnsafePointer<mg_video_format>?, _ count: Int32) -> [PluginVideoFormat]? {
        guard let inputs, count > 0 else { return nil }
        var out: [PluginVideoFormat] = []
        for k in 0..<Int(count) {
            guard let f = FormatCode.format(inputs[k].format) else { return nil }
            out.append(PluginVideoFormat(format: f, width: Int(inputs[k].width), height: Int(inputs[k].height)))
        }
        return out
    }
}

/// Boxes handed through the C interface as opaque pointers.
final class MixerType {
    let type: PluginMixer.Type
    init(_ type: PluginMixer.Type) { self.type = type }
}

final class MixerInstance {
    let mixer: PluginMixer
    let params: [String]
    let inputs: [PluginVideoFormat]
    init(_ mixer: PluginMixer, params: [String], inputs: [PluginVideoFormat]) {
        self.mixer = mixer
        self.params = params
        self.inputs = inputs
    }
}
