import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// `--set id.param=value` as a shell user types it: a problem with the value says it came from
/// `--set` rather than pointing into the graph file.
@Suite struct SetOverrideTests {
    static let graph = """
    {"nodes":{"src":{"type":"testsrc","params":{"frames":1,"width":64,"height":48}},
              "sp":{"type":"setparams"},
              "out":{"type":"y4msink","params":{"path":"out.y4m"}}},
     "chains":[["src","sp","out"]]}
    """

    /// The plan of `json` with `overrides`, built with the built-in nodes.
    static func plan(_ json: String = graph, _ overrides: [String] = []) throws -> GraphPlan {
        try GraphPlan(validating: try GraphFile.parse(text: json, file: "g.json", overrides: overrides), registry: BuiltinNodes.makeRegistry())
    }

    /// Every error validation prints for `json` with `overrides` (none when it is valid).
    static func errors(in json: String, _ overrides: [String]) throws -> [String] {
        do {
            _ = try plan(json, overrides)
        } catch let e as GraphValidationError {
            return e.errors.map(\.description)
        }
        return []
    }

    static func errors(_ overrides: [String]) throws -> [String] { try errors(in: graph, overrides) }

    static func param(_ plan: GraphPlan, _ node: String, _ name: String) -> JSONValue? {
        plan.nodes.first { $0.id == node }?.params[name]
    }

    @Test func aBadValueSaysItCameFromSet() throws {
        #expect(try Self.errors(["src.width=-5"]) == ["error: --set 'src.width=-5': node 'src' param 'width': expected integer 2…16384, found -5"])
        #expect(try Self.errors(["src.widht=64"]) == ["error: --set 'src.widht=64': node 'src' (testsrc): unknown param 'widht'; did you mean 'width'?"])
        // the same param written in the file keeps its place there
        let file = Self.graph.replacingOccurrences(of: #""width":64"#, with: #""width":-5"#)
        #expect(try Self.errors(in: file, []) == ["g.json:1:64: error: node 'src' param 'width': expected integer 2…16384, found -5"])
    }

    @Test func twoOutputsOneFileNamesTheSet() throws {
        let json = """
        {"nodes":{"src":{"type":"testsrc","params":{"frames":1}},"a":{"type":"y4msink","params":{"path":"a.y4m"}},
                  "b":{"type":"y4msink","params":{"path":"b.y4m"}}},
         "chains":[["src","a"],["src","b"]]}
        """
        let e = try Self.errors(in: json, ["b.path=a.y4m"])
        #expect(e.count == 1)
        #expect(e.first?.hasPrefix("error: --set 'b.path=a.y4m': node 'b' param 'path': output ") == true, "\(e)")
    }

    /// Through the binary: a bad value and an input named with --set that cannot be opened say
    /// they were given with --set.
    @Test func theCommandLineNamesSetValues() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(Self.graph, in: dir)
        let bad = try CLI.run(CLI.binary, ["run", "--quiet", g, "--set", "src.width=1"], cwd: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("error: --set 'src.width=1': node 'src' param 'width': expected integer 2…16384, found 1\n"), "\(bad.stderr)")
        let y4m = CLI.writeGraph(#"{"nodes":{"in":{"type":"y4msrc","params":{"path":"in.y4m"}},"out":{"type":"nullsink"}},"chains":[["in","out"]]}"#,
                                 in: dir, name: "y.json")
        let missing = try CLI.run(CLI.binary, ["run", "--quiet", y4m, "--set", "in.path=nope.y4m"], cwd: dir)
        #expect(missing.status == 2)
        // the node failed, not a check of one param: its place in the file, and the --set it was given
        #expect(missing.stderr.hasPrefix("\(y4m):1:24: error: node 'in' (y4msrc): cannot open '\(dir)/nope.y4m': No such file or directory (given --set in.path=nope.y4m)\n"),
                "\(missing.stderr)")
    }
}
