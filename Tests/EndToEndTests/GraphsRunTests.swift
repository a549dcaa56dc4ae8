import Foundation
import Testing

/// Every example graph validates and runs; generated references are in sync.
@Suite struct GraphsRunTests {
    static let graphs: [String] = {
        // Graphs/*.json and the shader examples in Graphs/shaders/*.json
        let dir = CLI.root + "/Graphs"
        let top = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".json") }
        let shaders = ((try? FileManager.default.contentsOfDirectory(atPath: dir + "/shaders")) ?? []).filter { $0.hasSuffix(".json") }.map { "shaders/" + $0 }
        return (top + shaders).sorted()
    }()

    /// Graphs that read what another example graph writes.
    static let prerequisites: [String: [String]] = [
        "remux-h264.json": ["testsrc-invert-h264.json"],
        "decode-h264-sepia-mp4.json": ["testsrc-invert-h264.json"],
        "remux-vp9-aac.json": ["testsrc-vp9-ivf.json", "sine-aac-adts.json"],
        "filesrc-remux.json": ["demo.json"],
        "filesrc-remux-mkv.json": ["demo.json"],
        "filesrc-sepia-mp4.json": ["demo.json"],
        "filesrc-trim-mp4.json": ["demo.json"],
        "filesrc-fps-mp4.json": ["demo.json"],
        "filesrc-fade-mp4.json": ["demo.json"],
        "filesrc-drawtext-mp4.json": ["demo.json"],
        "filesrc-unsharp-mp4.json": ["demo.json"],
        "filesrc-deinterlace-mp4.json": ["demo.json"],
        "filesrc-pad-mp4.json": ["demo.json"],
        "image-sequence-to-mp4.json": ["image-sequence.json"],
        "filesrc-to-gif.json": ["demo.json"],
        "filesrc-curves-mp4.json": ["demo.json"],
        "filesrc-flip-mp4.json": ["demo.json"],
        "filesrc-crop-mp4.json": ["demo.json"],
        "filesrc-to-mp3.json": ["demo.json"],
        "filesrc-speedup-mp4.json": ["demo.json"],
        "filesrc-eq-mp4.json": ["demo.json"],
        "filesrc-colorkey-overlay-mp4.json": ["demo.json"],
        "filesrc-retime-mp4.json": ["demo.json"],
        "filesrc-reverse-mp4.json": ["demo.json"],
        "filesrc-realtime-hls.json": ["demo.json"],
        "filesrc-subtitles-mp4.json": ["demo.json"],
        "filesrc-subtitle-track-mkv.json": ["demo.json"],
        "filesrc-subtitle-track-burn.json": ["demo.json", "filesrc-subtitle-track-mkv.json"],
    ]

    /// Graphs that read what mediagraph commands other than `run` write (a plan's parts).
    static let commandPrerequisites: [String: [[String]]] = [
        "segments-join-mp4.json": [["plan", "Graphs/demo.json", "--segments", "2", "--work", "out/demo.plan"]]
            + (0...2).map { ["run-segment", "out/demo.plan/manifest.json", "--index", String($0), "--quiet"] },
    ]

    @Test(arguments: graphs)
    func exampleGraphValidatesAndRuns(_ name: String) throws {
        for p in Self.prerequisites[name] ?? [] {
            let r = try CLI.mediagraph(["run", "--quiet", "Graphs/" + p])
            #expect(r.status == 0, "prerequisite \(p) of \(name): \(r.stderr)")
        }
        for command in Self.commandPrerequisites[name] ?? [] {
            let r = try CLI.mediagraph(command)
            #expect(r.status == 0, "prerequisite `mediagraph \(command.joined(separator: " "))` of \(name): \(r.stderr)")
        }
        let v = try CLI.mediagraph("validate", "Graphs/" + name)
        #expect(v.status == 0, "validate \(name): \(v.stderr)")
        // keep the runs short: at most 30 frames where the graph has a testsrc/sine node
        var args = ["run", "--quiet", "Graphs/" + name]
        let text = try String(contentsOfFile: CLI.root + "/Graphs/" + name, encoding: .utf8)
        if text.contains("\"testsrc\"") { args += cappedFrames(text) }
        var stdin: String?
        if name.hasPrefix("stdin-") {
            // graphs reading standard input get a small stream made by ffmpeg
            let dir = CLI.tempDir()
            stdin = dir + "/in"
            let raw = text.contains("\"rawsrc\"")
            try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "10",
                                   "-pix_fmt", "yuv420p", "-f", raw ? "rawvideo" : "yuv4mpegpipe", stdin!])
        }
        let r = try CLI.mediagraph(args, stdin: stdin)
        #expect(r.status == 0, "run \(name): \(r.stderr)")
    }

    func cappedFrames(_ graphText: String) -> [String] {
        // find testsrc node ids: "id": { "type": "testsrc"
        var out: [String] = []
        let pattern = try! NSRegularExpression(pattern: "\"([A-Za-z_][A-Za-z0-9_-]*)\"\\s*:\\s*\\{\\s*\"type\"\\s*:\\s*\"testsrc\"")
        for m in pattern.matches(in: graphText, range: NSRange(graphText.startIndex..., in: graphText)) {
            let id = String(graphText[Range(m.range(at: 1), in: graphText)!])
            out += ["--set", "\(id).frames=30"]
        }
        return out
    }

    @Test func everyShippedShaderHasAnExampleGraph() throws {
        let dir = CLI.root + "/Graphs/shaders"
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        for glsl in files where glsl.hasSuffix(".glsl") {
            #expect(files.contains(glsl.replacingOccurrences(of: ".glsl", with: ".json")), "no example graph for \(glsl)")
        }
    }

    /// An editor pointed at Docs/graph.schema.json (as graph-files.md says) accepts every example
    /// graph, frei0r effects and plugin types included, and still catches a misspelt param:
    /// checked by the `jsonschema` package (Draft 2020-12), an independent validator.
    @Test func everyExampleGraphPassesTheSchema() throws {
        let script = """
        import glob, json, sys
        import jsonschema
        v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1] + "/Docs/graph.schema.json")))
        for g in sorted(glob.glob(sys.argv[1] + "/Graphs/*.json")):
            for e in v.iter_errors(json.load(open(g))):
                print("%s: %s" % (g, e.message[:200]))
        bad = {"nodes": {"s": {"type": "testsrc", "params": {"widht": 64}}, "o": {"type": "nullsink"}}, "chains": [["s", "o"]]}
        print("misspelt param caught: %s" % (len(list(v.iter_errors(bad))) > 0))
        """
        let r = try CLI.run("/usr/bin/python3", ["-c", script, CLI.root])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out == "misspelt param caught: True\n", "\(r.out)")
    }

    @Test func schemaInDocsIsCurrent() throws {
        let r = try CLI.mediagraph("schema")
        let committed = try String(contentsOfFile: CLI.root + "/Docs/graph.schema.json", encoding: .utf8)
        #expect(r.out == committed, "Docs/graph.schema.json is stale: run `mediagraph schema > Docs/graph.schema.json`")
    }

    @Test func nodeReferenceInDocsIsCurrent() throws {
        let r = try CLI.mediagraph("nodes", "--markdown")
        let committed = try String(contentsOfFile: CLI.root + "/Docs/nodes.md", encoding: .utf8)
        #expect(r.out == committed, "Docs/nodes.md is stale: run `mediagraph nodes --markdown > Docs/nodes.md`")
    }

    /// Filters that run with their default params need none: FilterSmokeTests makes a graph for
    /// each (so a new built-in filter is its file and one registration line).
    @Test func everyBuiltInNodeHasAnExampleGraph() throws {
        let r = try CLI.mediagraph("nodes", "--json")
        guard let list = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]] else {
            Issue.record("nodes --json did not print a list"); return
        }
        let all = Self.graphs.map { (try? String(contentsOfFile: CLI.root + "/Graphs/" + $0, encoding: .utf8)) ?? "" }.joined()
        for node in list where node["origin"] as? String == "built-in" {
            let name = node["name"] as! String
            if name == "convert" && all.contains("auto_convert") { continue }
            if FilterSmokeTests.filters.contains(where: { $0.name == name }) { continue }
            #expect(all.contains("\"type\": \"\(name)\""), "no graph in Graphs/ uses node type '\(name)'")
        }
    }
}
