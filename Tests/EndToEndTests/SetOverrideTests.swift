import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// `--set id.param=value` as a shell user types it: a choice whose words are numerals takes the
/// number, a path takes the text as typed, and a problem with the value says it came from
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

    @Test func aChoiceOfNumeralsTakesTheNumber() throws {
        let set = try Self.plan(Self.graph, ["sp.rotation=90"])
        #expect(Self.param(set, "sp", "rotation")?.stringValue == "90")
        _ = try set.instantiate(for: .inspect)   // the node reads it as its word
        // in the file, too
        let file = try Self.plan(Self.graph.replacingOccurrences(of: #""type":"setparams""#, with: #""type":"setparams","params":{"rotation":270}"#))
        #expect(Self.param(file, "sp", "rotation")?.stringValue == "270")
        // the word as a JSON string still works
        #expect(Self.param(try Self.plan(Self.graph, [#"sp.rotation="180""#]), "sp", "rotation")?.stringValue == "180")
    }

    /// Decimal numerals: `layout` 5.1 is "5.1", and 3 (JSON has one number type, and the shell
    /// user's 3.0 is the number 3) is "3.0".
    @Test func aChoiceOfDecimalNumeralsTakesTheNumber() throws {
        let audio = """
        {"nodes":{"tone":{"type":"sine","params":{"seconds":0.1}},"rs":{"type":"resample"},
                  "out":{"type":"pcmsink","params":{"path":"out.pcm"}}},
         "chains":[["tone","rs","out"]]}
        """
        for (typed, word) in [("5.1", "5.1"), ("3.0", "3.0"), ("3", "3.0"), ("2.1", "2.1")] {
            let set = try Self.plan(audio, ["rs.layout=\(typed)"])
            #expect(Self.param(set, "rs", "layout")?.stringValue == word, "\(typed)")
            let file = try Self.plan(audio.replacingOccurrences(of: #""type":"resample""#, with: #""type":"resample","params":{"layout":\#(typed)}"#))
            #expect(Self.param(file, "rs", "layout")?.stringValue == word, "\(typed) in the file")
        }
        _ = try Self.plan(audio, ["rs.layout=5.1"]).instantiate(for: .inspect)
        #expect(try Self.errors(in: audio, ["rs.layout=5.2"]).first?.contains("found number 5.2") == true)
    }

    @Test func aNumberThatIsNoChoiceIsRefused() throws {
        #expect(try Self.errors(["sp.rotation=45"]) == [#"error: --set 'sp.rotation=45': node 'sp' param 'rotation': expected one of "0", "90", "180", "270", found integer 45"#])
        #expect(try Self.errors(["sp.rotation=90.5"]) == [#"error: --set 'sp.rotation=90.5': node 'sp' param 'rotation': expected one of "0", "90", "180", "270", found number 90.5"#])
        #expect(try Self.errors(["sp.rotation=9e1"]).isEmpty, "9e1 is the integer 90")
    }

    @Test func nullIsNamedOnce() throws {
        #expect(try Self.errors(["sp.rotation=null"]) == [#"error: --set 'sp.rotation=null': node 'sp' param 'rotation': expected one of "0", "90", "180", "270", found null"#])
    }

    @Test func aPathTakesTheTextAsTyped() throws {
        #expect(Self.param(try Self.plan(Self.graph, ["out.path=2024"]), "out", "path")?.stringValue == "2024")
        #expect(Self.param(try Self.plan(Self.graph, ["out.path=true"]), "out", "path")?.stringValue == "true")
        // a JSON string is still read as one (the quotes are not part of the name)
        #expect(Self.param(try Self.plan(Self.graph, [#"out.path="a b.y4m""#]), "out", "path")?.stringValue == "a b.y4m")
        // the graph file is JSON: a number there is not a path
        let file = Self.graph.replacingOccurrences(of: #""path":"out.y4m""#, with: #""path":2024"#)
        #expect(try Self.errors(in: file, []) == ["g.json:3:52: error: node 'out' param 'path': expected path, found integer 2024"])
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

    /// Through the binary: the path is taken against the current directory, as typed; an input
    /// named with --set that cannot be opened says it was given with --set.
    @Test func theCommandLineNamesSetValues() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(Self.graph, in: dir)
        let r = try CLI.run(CLI.binary, ["run", "--quiet", g, "--set", "out.path=2024", "--set", "sp.rotation=90"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/2024"))
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
