import Foundation
import Testing

/// `validate` and `dot` create the graph's nodes but must not read an input that can be read
/// only once: a run after them on the same standard input gets all of it.
@Suite struct InspectLeavesInputTests {
    @Test(arguments: ["validate", "dot"])
    func runAfterInspectingGetsAllOfStandardInput(_ command: String) throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.y4m"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "3", "-pix_fmt", "yuv422p", input])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "-" } },
                     "out": { "type": "y4msink", "params": { "path": "-" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        // one standard input (the file, one offset) for both commands
        let r = try CLI.run("/bin/sh", ["-c", "\"$0\" \(command) \"$1\" > /dev/null && \"$0\" run --quiet \"$1\"", CLI.binary, g], stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == FileManager.default.contents(atPath: input), "the run did not get the whole input")
    }
}
