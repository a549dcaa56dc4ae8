import Foundation
import Testing

/// A node that makes frames beyond `MediaLimits` (2^26 pixels: Docs/limits.md) is refused when
/// the graph is validated, naming the node and its output, whichever node it is: a source whose
/// params ask for it, or a filter that would produce it. (Before, scale to 16384x16384 ran into
/// gigabytes.)
@Suite struct FrameSizeLimitTests {
    @Test(arguments: [
        (#""src": {"type": "testsrc", "params": {"width": 16384, "height": 16384, "frames": 1}}, "o": {"type": "nullsink"}"#, #"[["src", "o"]]"#,
         "node 'src' (testsrc): output 'out': frame size 16384x16384 has 268435456 pixels, above the limit of 67108864 (2^26)"),
        (#""src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 1}}, "s": {"type": "scale", "params": {"width": 16384, "height": 8192}}, "o": {"type": "nullsink"}"#, #"[["src", "s", "o"]]"#,
         "node 's' (scale): output 'out': frame size 16384x8192 has 134217728 pixels, above the limit of 67108864 (2^26)"),
    ])
    func framesBeyondTheLimitAreRefusedAtValidation(nodes: String, chains: String, message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{"nodes": {\#(nodes)}, "chains": \#(chains)}"#, in: dir)
        for command in ["validate", "run"] {
            let r = try CLI.mediagraph(command, g)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("error: " + message), "\(command): \(r.stderr)")
        }
        // at the limit itself (8192x8192) the same graph is valid
        let atLimit = CLI.writeGraph(#"{"nodes": {\#(nodes.replacingOccurrences(of: "16384", with: "8192"))}, "chains": \#(chains)}"#, in: dir, name: "ok.json")
        let ok = try CLI.mediagraph("validate", atLimit)
        #expect(ok.status == 0, "\(ok.stderr)")
    }
}
