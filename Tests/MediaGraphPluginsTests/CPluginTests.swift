import Foundation
import Testing

/// The C plugin above, loaded by the CLI: its output checked against the formula, and every
/// way loading can fail checked for a message naming the file (and node) and an exit code.
@Suite struct CPluginTests {
    /// Compiles the C plugin into `dir/name` with extra flags; returns its path.
    static func compile(in dir: String, name: String = "ctest.so", flags: [String] = []) throws -> String {
        let src = dir + "/ctest.c"
        if !FileManager.default.fileExists(atPath: src) { Tool.write(CPluginSource.text, to: src) }
        let out = dir + "/" + name
        try? FileManager.default.createDirectory(atPath: (out as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let r = try Tool.run("cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I", Tool.root + "/Sources/CMediaGraphPlugin/include"] + flags + [src, "-o", out])
        #expect(r.status == 0, "cc: \(r.stderr)")
        return out
    }

    @Test(arguments: [(37, true), (-20, false)])
    func offsetMatchesFormula(amount: Int, chroma: Bool) throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try Self.compile(in: dir)
        let (w, h) = (176, 144)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "yuv420p", frames: 3)
        // the graph names the plugin relative to itself; its directory is on the search path
        Tool.write(Tool.chainGraph(input: input, width: w, height: h, format: "yuv420p",
                                   filters: [("ctest.offset", "{\"amount\": \(amount), \"chroma\": \(chroma)}")],
                                   output: dir + "/out.yuv", plugins: ["ctest.so"]), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", dir + "/g.json"], env: ["MEDIAGRAPH_PLUGIN_PATH": dir])
        #expect(r.status == 0, "\(r.stderr)")
        let src = Tool.read(input), out = Tool.read(dir + "/out.yuv")
        let frame = w * h * 3 / 2
        var expected = src
        for i in 0..<src.count where chroma || i % frame < w * h {
            expected[i] = UInt8(max(0, min(255, Int(src[i]) + amount)))
        }
        #expect(out.count == src.count)
        let same = out == expected
        #expect(same, "output differs from src + \(amount) at byte \(zip(out, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
    }

    @Test func processErrorNamesPluginNodeAndFrame() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plugin = try Self.compile(in: dir)
        let input = try Tool.testFrames(dir, width: 64, height: 48, format: "gray", frames: 5)
        Tool.write(Tool.chainGraph(input: input, width: 64, height: 48, format: "gray",
                                   filters: [("ctest.failat", "{\"frame\": 3}")], output: dir + "/out.gray"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", "--plugin", plugin, dir + "/g.json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("plugin \(plugin), node ctest.failat 'f0': process failed at frame 3: synthetic failure on frame 3"), "\(r.stderr)")
    }

    /// Runs `validate` with the given plugin paths on a graph that uses no plugin node.
    func validate(_ plugins: [String], dir: String) throws -> Tool.Result {
        Tool.write(#"{"nodes": {"s": {"type": "testsrc", "params": {"frames": 1}}, "o": {"type": "nullsink"}}, "chains": [["s", "o"]]}"#, to: dir + "/g.json")
        return try Tool.mediagraph(["validate"] + plugins.flatMap { ["--plugin", $0] } + [dir + "/g.json"])
    }

    @Test func otherABIVersionIsRefusedNamingBoth() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Self.compile(in: dir, name: "old.so", flags: ["-DABI=99"])
        let r = try validate([p], dir: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("plugin \(p): built for plugin ABI version 99, but this mediagraph speaks version 1"), "\(r.stderr)")
    }

    @Test func missingEntryPointNotALibraryAndMissingFile() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let noEntry = try Self.compile(in: dir, name: "noentry.so", flags: ["-DNO_ENTRY"])
        let text = dir + "/text.so"
        Tool.write("not a library", to: text)
        let missing = dir + "/missing.so"
        let r = try validate([noEntry, text, missing], dir: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("plugin \(noEntry): is not a MediaGraph plugin: it does not export the entry point 'mediagraph_plugin_entry'"), "\(r.stderr)")
        #expect(r.stderr.contains("plugin \(text): not a loadable shared library"), "\(r.stderr)")
        #expect(r.stderr.contains("plugin \(missing): no such file"), "\(r.stderr)")
        // `plugins` lists the failures, and exits 1 because the user named those files
        let list = try Tool.mediagraph(["plugins", "--plugin", noEntry, "--plugin", missing])
        #expect(list.status == 1)
        #expect(list.out.contains("failed (2):"), "\(list.out)")
    }

    @Test func duplicateNodeTypeNamesBothFiles() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = try Self.compile(in: dir, name: "a/ctest.so"), b = try Self.compile(in: dir, name: "b/ctest.so")
        let r = try validate([a, b], dir: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("plugin \(b): node type 'ctest.offset' from \(b) is already defined by \(a)"), "\(r.stderr)")
    }

    @Test func environmentPathAndDirectoriesAreSearched() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = try Self.compile(in: dir, name: "lib/ctest.so")
        let r = try Tool.mediagraph(["nodes"], env: ["MEDIAGRAPH_PLUGIN_PATH": "/nonexistent-dir:" + dir + "/lib"])
        #expect(r.out.contains("ctest.offset"), "\(r.out)")
        #expect(r.out.contains("[\(p)]"), "origin shown: \(r.out)")
        let d = try Tool.mediagraph(["nodes", "ctest.offset", "--plugin", dir + "/lib"])
        #expect(d.out.contains("amount: integer -255…255, default 10"), "\(d.out)")
        #expect(d.out.contains("in: video/raw yuv420p|gray|rgba"), "\(d.out)")
    }
}
