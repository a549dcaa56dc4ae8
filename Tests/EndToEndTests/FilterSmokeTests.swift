import Foundation
import Testing

/// Every built-in filter runs in a graph made here (so a new filter needs no example graph of its
/// own): testsrc → convert to each pixel format the filter accepts → the filter with its default
/// params → framehash. Every branch must give all its frames, each of the size its format has.
@Suite struct FilterSmokeTests {
    static let width = 64, height = 48, frames = 3

    /// A built-in node type as `mediagraph nodes --json` describes it.
    struct NodeType: CustomStringConvertible, Sendable {
        var name: String
        var category: String
        var origin: String
        var inputs: [String]
        var requiredParams: [String]
        var description: String { name }
    }

    static let nodeTypes: [NodeType] = {
        guard let r = try? CLI.mediagraph("nodes", "--json"),
              let list = try? JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]] else { return [] }
        return list.map { n in
            NodeType(name: n["name"] as? String ?? "",
                     category: n["category"] as? String ?? "",
                     origin: n["origin"] as? String ?? "",
                     inputs: (n["inputs"] as? [[String: Any]] ?? []).map { $0["accepts"] as? String ?? "" },
                     requiredParams: (n["params"] as? [[String: Any]] ?? []).filter { $0["required"] as? Bool == true }
                         .map { $0["name"] as? String ?? "" })
        }
    }()

    /// Built-in filters on one raw video input whose params all have workable defaults: a graph
    /// with the filter and no params validates. (The others — a lut3d needs its file, a shader its
    /// source, scale a size — keep an example graph in Graphs/, GraphsRunTests checks.)
    static let filters: [NodeType] = nodeTypes.filter {
        $0.origin == "built-in" && $0.category == "filter" && $0.inputs.count == 1
            && $0.inputs[0].hasPrefix("video/raw ") && $0.requiredParams.isEmpty && validatesWithDefaults($0)
    }

    static func validatesWithDefaults(_ filter: NodeType) -> Bool {
        let dir = CLI.tempDir()
        let path = CLI.writeGraph("""
            { "nodes": { "src": { "type": "testsrc" }, "f": { "type": "\(filter.name)" }, "out": { "type": "nullsink" } },
              "chains": [["src", "f", "out"]] }
            """, in: dir)
        return (try? CLI.mediagraph("validate", path))?.status == 0
    }

    /// Bytes of one packed frame of `format` (ffmpeg's pixel format names).
    static func frameBytes(_ format: String) -> Int? {
        let pixels = width * height
        switch format {
        case "yuv420p": return pixels * 3 / 2
        case "yuv422p": return pixels * 2
        case "yuv444p": return pixels * 3
        case "rgba", "bgra": return pixels * 4
        case "gray": return pixels
        case "yuv420p10le": return pixels * 3
        case "yuv422p10le": return pixels * 4
        case "yuv444p10le": return pixels * 6
        default: return nil
        }
    }

    @Test func theBuiltInFiltersAreFound() {
        // the list drives the test below: an empty or short one would test nothing
        #expect(Self.filters.count >= 10, "found \(Self.filters.map(\.name))")
        #expect(Self.filters.contains { $0.name == "invert" })
    }

    @Test(arguments: filters)
    func runsOnEveryFormatItAccepts(_ filter: NodeType) throws {
        let formats = filter.inputs[0].dropFirst("video/raw ".count).split(separator: "|").map(String.init)
        #expect(!formats.isEmpty)
        let dir = CLI.tempDir()
        var nodes = ["\"src\": { \"type\": \"testsrc\", \"params\": { \"width\": \(Self.width), \"height\": \(Self.height), \"frames\": \(Self.frames), \"format\": \"rgba\" } }"]
        var chains: [String] = []
        for (k, f) in formats.enumerated() {
            nodes.append("\"c\(k)\": { \"type\": \"convert\", \"params\": { \"format\": \"\(f)\" } }")
            nodes.append("\"f\(k)\": { \"type\": \"\(filter.name)\" }")
            nodes.append("\"h\(k)\": { \"type\": \"framehash\", \"params\": { \"path\": \"\(dir)/\(k).txt\" } }")
            chains.append("[\"src\", \"c\(k)\", \"f\(k)\", \"h\(k)\"]")
        }
        let graph = "{ \"nodes\": { \(nodes.joined(separator: ",\n")) },\n \"chains\": [\(chains.joined(separator: ", "))] }"
        let path = CLI.writeGraph(graph, in: dir)
        let r = try CLI.mediagraph(["run", "--quiet", path])
        #expect(r.status == 0, "\(filter.name): \(r.stderr)")
        guard r.status == 0 else { return }
        for (k, f) in formats.enumerated() {
            let text = (try? String(contentsOfFile: "\(dir)/\(k).txt", encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(lines.count == Self.frames, "\(filter.name) on \(f): \(lines.count) frames")
            let sizes = lines.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }[2] }
            if let bytes = Self.frameBytes(f) {
                #expect(sizes.allSatisfy { $0 == String(bytes) }, "\(filter.name) on \(f): frame sizes \(sizes), expected \(bytes)")
            } else {
                Issue.record("\(filter.name) accepts \(f), which this test has no frame size for")
            }
        }
    }
}
