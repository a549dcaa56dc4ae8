import CMediaGraphPlugin
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// Builds the C descriptor a plugin's `mediagraph_plugin_entry` returns from Swift filter types.
///
/// ```swift
/// let descriptor = PluginExport.descriptor(name: "example-filters", version: "1.0",
///                                          filters: [Posterize.self, ExampleInvert.self])
/// @_cdecl("mediagraph_plugin_entry")
/// public func mediagraphPluginEntry() -> UnsafeRawPointer { descriptor.pointer }
/// ```
/// A plugin's C descriptor (`mg_plugin_desc`), for a global `let` the entry point returns.
///
/// `@unchecked Sendable` because it is a C pointer: the descriptor and everything it points to are
/// written once, before the first `let` read returns, and never changed; the host only reads it.
public struct PluginDescriptor: @unchecked Sendable {
    /// What `mediagraph_plugin_entry` returns.
    public let pointer: UnsafeRawPointer
}

public enum PluginExport {
    /// The descriptor, allocated once and kept for the life of the library.
    public static func descriptor(name: String, version: String, filters: [PluginFilter.Type], mixers: [PluginMixer.Type] = []) -> PluginDescriptor {
        let count = filters.count + mixers.count
        let nodes = UnsafeMutablePointer<mg_node_desc>.allocate(capacity: max(1, count))
        for (k, type) in filters.enumerated() {
            nodes[k] = nodeDescriptor(type)
        }
        for (k, type) in mixers.enumerated() {
            nodes[filters.count + k] = MixerExport.nodeDescriptor(type)
        }
        let plugin = UnsafeMutablePointer<mg_plugin_desc>.allocate(capacity: 1)
        plugin.initialize(to: mg_plugin_desc(abi_version: UInt32(MG_PLUGIN_ABI_VERSION), name: strdup(name),
                                             version: strdup(version), nodes: nodes, node_count: Int32(count)))
        return PluginDescriptor(pointer: UnsafeRawPointer(plugin))
    }

    /// The C array of `formats`' codes, allocated for the life of the library.
    static func formatCodes(_ formats: [PixelFormat]) -> UnsafeMutablePointer<Int32> {
        let codes = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, formats.count))
        for (i, f) in formats.enumerated() { codes[i] = FormatCode.code(f) }
        return codes
    }

    /// The C declarations of `declared`, allocated for the life of the library.
    static func paramDescriptors(_ declared: [PluginParam]) -> UnsafeMutablePointer<mg_param_desc> {
        let params = UnsafeMutablePointer<mg_param_desc>.allocate(capacity: max(1, declared.count))
        for (i, p) in declared.enumerated() {
            var d = mg_param_desc()
            d.name = UnsafePointer(strdup(p.name))
            d.doc = UnsafePointer(strdup(p.doc))
            d.default_number = p.defaultNumber
            d.default_string = UnsafePointer(strdup(p.defaultString))
            switch p.kind {
            case .double(let r):
                d.type = Int32(MG_PARAM_DOUBLE.rawValue)
                if let r { d.has_range = 1; d.min = r.lowerBound; d.max = r.upperBound }
            case .int(let r):
                d.type = Int32(MG_PARAM_INT.rawValue)
                if let r { d.has_range = 1; d.min = Double(r.lowerBound); d.max = Double(r.upperBound) }
            case .bool: d.type = Int32(MG_PARAM_BOOL.rawValue)
            case .string: d.type = Int32(MG_PARAM_STRING.rawValue)
            }
            params[i] = d
        }
        return params
    }

    /// The param value `set_param` received, as the kit hands it to a node.
    static func value(_ value: UnsafePointer<mg_param_value>) -> PluginParamValue {
        value.pointee.type == Int32(MG_PARAM_STRING.rawValue)
            ? .string(value.pointee.string.map { String(cString: $0) } ?? "")
            : .number(value.pointee.number)
    }

    static func nodeDescriptor(_ type: PluginFilter.Type) -> mg_node_desc {
        let formats = formatCodes(type.formats)
        let params = paramDescriptors(type.params)
        var n = mg_node_desc()
        n.name = UnsafePointer(strdup(type.name))
        n.doc = UnsafePointer(strdup(type.doc))
        n.formats = UnsafePointer(formats)
        n.format_count = Int32(type.formats.count)
        n.params = UnsafePointer(params)
        n.param_count = Int32(type.params.count)
        n.flags = type.inPlace ? UInt32(MG_NODE_IN_PLACE) : 0
        n.node_data = Unmanaged.passRetained(FilterType(type)).toOpaque()
        n.create = { data, width, height, format, err in
            let t = Unmanaged<FilterType>.fromOpaque(data!).takeUnretainedValue().type
            guard let f = FormatCode.format(format) else {
                Message.write("unknown pixel format code \(format)", to: err)
                return nil
            }
            do {
                let filter = try t.init(width: Int(width), height: Int(height), format: f)
                return Unmanaged.passRetained(FilterInstance(filter, params: t.params.map(\.name))).toOpaque()
            } catch {
                Message.write("\(error)", to: err)
                return nil
            }
        }
        n.set_param = { inst, index, value, err in
            let box = Unmanaged<FilterInstance>.fromOpaque(inst!).takeUnretainedValue()
            guard let value, index >= 0, Int(index) < box.params.count else {
                Message.write("no param #\(index)", to: err)
                return 1
            }
            do { try box.filter.set(box.params[Int(index)], PluginExport.value(value)); return 0 } catch {
                Message.write("\(error)", to: err)
                return 1
            }
        }
        n.process = { inst, input, output, error in
            let box = Unmanaged<FilterInstance>.fromOpaque(inst!).takeUnretainedValue()
            guard let input, let output, let src = FormatCode.planes(input.pointee), let dst = FormatCode.planes(output.pointee) else {
                Message.write("bad frame description", to: error)
                return 1
            }
            do { try box.filter.process(src, dst, pts: input.pointee.pts); return 0 } catch let e {
                Message.write("\(e)", to: error)
                return 1
            }
        }
        n.flush = { inst, error in
            let box = Unmanaged<FilterInstance>.fromOpaque(inst!).takeUnretainedValue()
            do { try box.filter.flush(); return 0 } catch let e {
                Message.write("\(e)", to: error)
                return 1
            }
        }
        n.destroy = { inst in
            if let inst { Unmanaged<FilterInstance>.fromOpaque(inst).release() }
        }
        return n
    }
}

/// Boxes handed through the C interface as opaque pointers.
final class FilterType {
    let type: PluginFilter.Type
    init(_ type: PluginFilter.Type) { self.type = type }
}

final class FilterInstance {
    let filter: PluginFilter
    let params: [String]
    init(_ filter: PluginFilter, params: [String]) {
        self.filter = filter
        self.params = params
    }
}

/// Writes a message into the host's error struct (truncated, always terminated).
enum Message {
    static func write(_ s: String, to error: UnsafeMutablePointer<mg_error>?) {
        guard let error else { return }
        withUnsafeMutableBytes(of: &error.pointee.message) { raw in
            let bytes = Array(s.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }
}
