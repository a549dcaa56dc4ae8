import Foundation
import MediaGraphNodes
import Testing

/// The graph core (validation, instantiation, negotiation, scheduling) knows the node modules'
/// types only through the registry: converters are registered adapters, not names in its code.
@Suite struct CoreNamesNoNodeTypeTests {
    @Test func graphAndSchedulingCodeNamesNoBuiltInNodeType() throws {
        let names = BuiltinNodes.makeRegistry().typeNames
        #expect(names.contains("convert") && names.contains("decode"))
        var found: [String] = []
        for dir in ["Graph", "Scheduling"] {
            let path = CLI.root + "/Sources/MediaGraphCore/" + dir
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    if code.hasPrefix("//") { continue }
                    for name in names where code.contains("\"\(name)\"") { found.append("\(dir)/\(file):\(k + 1): \"\(name)\"") }
                }
            }
        }
        #expect(found == [])
    }
}
