// custom-filter INPUT.rgba WIDTH HEIGHT OUTPUT.rgba LEVEL
// Reads raw rgba frames, runs them through `threshold` in a graph and writes raw rgba frames.
import Foundation
import MediaGraphCore
import MediaGraphNodes

let args = CommandLine.arguments
guard args.count == 6, let width = Int(args[2]), let height = Int(args[3]), let level = Int(args[5]) else {
    FileHandle.standardError.write(Data("usage: custom-filter INPUT.rgba WIDTH HEIGHT OUTPUT.rgba LEVEL\n".utf8))
    exit(2)
}

// The built-in node types plus ours: one line per node type.
let registry = BuiltinNodes.makeRegistry()
registry.add(Threshold.self)

let json = """
{"nodes": {"src": {"type": "rawsrc", "params": {"path": "\(args[1])", "width": \(width), "height": \(height), "format": "rgba"}},
           "thr": {"type": "threshold", "params": {"level": \(level)}},
           "out": {"type": "rawsink", "params": {"path": "\(args[4])"}}},
 "chains": [["src", "thr", "out"]]}
"""
do {
    let spec = try GraphFile.parse(text: json, file: "threshold.json")
    try GraphRunner(graph: try GraphBuilder.build(spec, registry: registry)).run()
} catch {
    FileHandle.standardError.write(Data("custom-filter: \(error)\n".utf8))
    exit(1)
}
