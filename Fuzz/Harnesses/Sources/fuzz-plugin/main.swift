import FuzzDriver
import Foundation
import MediaGraphCore
import MediaGraphPlugins

/// Plugin declarations: the C plugin loader (`CPlugin`) and the frei0r loader (`Frei0rPlugin`)
/// open a real shared library (libFuzzPlugin.so, built beside this harness) whose descriptor,
/// plugin info and param infos are built from the input; the node types that pass are then
/// given params from the rest of the input, as a graph file would (`ParamValidator`).
///
/// Input: a 2-byte little-endian length N, N bytes of declaration (Sources/FuzzPlugin), then the
/// param values.
let libraryPath = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("libFuzzPlugin.so").path
let setDeclaration: @convention(c) (UnsafePointer<UInt8>?, Int) -> Void = {
    guard let handle = dlopen(libraryPath, RTLD_NOW), let f = dlsym(handle, "fuzz_plugin_set") else {
        fatalError("cannot load fuzz_plugin_set from \(libraryPath): \(dlerror().map { String(cString: $0) } ?? "")")
    }
    return unsafeBitCast(f, to: (@convention(c) (UnsafePointer<UInt8>?, Int) -> Void).self)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlugin(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard size >= 2 else { return 0 }
    let declared = min(size - 2, Int(bytes[0]) | Int(bytes[1]) << 8)
    setDeclaration(data.map { $0 + 2 }, declared)
    var types: [NodeTypeInfo] = []
    if let plugin = try? CPlugin(path: libraryPath) { types += plugin.nodeTypes.map(\.info) }
    if let effect = try? Frei0rPlugin(path: libraryPath) { types.append(effect.info) }
    var values = Array(bytes[(2 + declared)...])[...]
    func byte() -> UInt8 { values.popFirst() ?? 0 }
    func number() -> Double {
        let table: [Double] = [0, 1, -1, 0.5, 2.5, 1e15, -1e15, 1e300, 9007199254740994, -0.0]
        let b = Int(byte())
        return b < table.count ? table[b] : Double(Int8(truncatingIfNeeded: b)) * 1.5
    }
    for info in types {
        var members: [(key: String, value: JSONValue)] = []
        for p in info.params {
            switch byte() % 5 {
            case 0: members.append((p.name, .number(number(), nil)))
            case 1: members.append((p.name, .bool(byte() & 1 != 0, nil)))
            case 2: members.append((p.name, .string(String(decoding: (0..<Int(byte() % 8)).map { _ in byte() }, as: UTF8.self), nil)))
            case 3: members.append((p.name, .array([.number(number(), nil), .number(number(), nil), .number(number(), nil)], nil)))
            default: break
            }
        }
        _ = ParamValidator.validate(node: "n", type: info, given: .object(members, nil), baseDirectory: ".", file: "fuzz.json")
    }
    return 0
}

runLibFuzzer(fuzzPlugin)
