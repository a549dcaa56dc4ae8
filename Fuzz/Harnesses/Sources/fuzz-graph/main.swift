import FuzzDriver
import Foundation
import MediaGraphCore
import MediaGraphNodes

/// Graph files and `--set` overrides: the JSON parser, the graph-file reader, param validation
/// and the whole of `validate` (node creation and negotiation with the built-in registry).
///
/// The input is the graph text, then optionally NUL-separated `--set id.param=value` overrides.
/// The harness runs in a working directory of its own (Fuzz/run.sh makes one, with a few input
/// files: in.y4m, in.wav, in.glsl, in.cube, in.h264, in.ivf, in.aac), so relative paths in the
/// graph stay there; graphs naming absolute paths or `..` are only parsed, never validated, so a
/// bug that makes validation write cannot write outside that directory. Validation must write
/// nothing: any change in the directory is a crash.
let registry = BuiltinNodes.makeRegistry()
let workDirectory = FileManager.default.currentDirectoryPath
let initialState = directoryState()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraph(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    // As GraphFile.load does: the file must be UTF-8; so must --set arguments (they come from argv).
    guard let text = parts.first.flatMap({ String(validating: $0, as: UTF8.self) }) else { return 0 }
    var overrides: [String] = []
    for part in parts.dropFirst() {
        guard let o = String(validating: part, as: UTF8.self) else { return 0 }
        overrides.append(o)
    }
    guard let spec = try? GraphFile.parse(text: text, file: "fuzz.json", baseDirectory: ".", overrides: overrides) else { return 0 }
    guard spec.nodes.allSatisfy({ $0.params.map(staysInWorkDirectory) ?? true }) else { return 0 }
    // as `validate` does: the pure plan, then instantiation for inspection (nothing is run)
    _ = try? GraphPlan(validating: spec, registry: registry).instantiate(for: .inspect)
    checkNothingWritten()
    return 0
}

/// Whether every string in `value` is a path that cannot leave the working directory.
func staysInWorkDirectory(_ value: JSONValue) -> Bool {
    switch value {
    case .string(let s, _): return !s.hasPrefix("/") && !s.hasPrefix("~") && !s.contains("..")
    case .array(let items, _): return items.allSatisfy(staysInWorkDirectory)
    case .object(let members, _): return members.allSatisfy { staysInWorkDirectory($0.value) }
    default: return true
    }
}

/// Names, sizes and modification times of what is in the working directory.
func directoryState() -> [String: String] {
    var state: [String: String] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: workDirectory)) ?? [] {
        let a = try? FileManager.default.attributesOfItem(atPath: workDirectory + "/" + name)
        state[name] = "\(a?[.type] ?? "?") \(a?[.size] ?? "?") \((a?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }
    return state
}

/// Validation writes nothing: a change in the working directory is a crash.
func checkNothingWritten() {
    let now = directoryState()
    guard now != initialState else { return }
    let changed = Set(now.keys).union(initialState.keys).filter { now[$0] != initialState[$0] }.sorted()
    fatalError("validation changed the working directory: \(changed)")
}

runLibFuzzer(fuzzGraph)
