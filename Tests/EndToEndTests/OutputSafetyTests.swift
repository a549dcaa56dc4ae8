#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Outputs never write through planted links, never onto an input or each other, `validate`
/// writes nothing, and a killed or failing run leaves no temporary file.
@Suite struct OutputSafetyTests {
    static let src = #""src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 3}}"#

    /// Every path under `dir` with its type and size, to compare before and after.
    func tree(_ dir: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir)
        var out: [String] = []
        while let p = e?.nextObject() as? String {
            let a = try? FileManager.default.attributesOfItem(atPath: dir + "/" + p)
            out.append("\(p) \(a?[.type] ?? "?") \(a?[.size] ?? "?")")
        }
        return out.sorted()
    }

    @Test func twoSinksWithOnePathAreRefusedNamingBoth() throws {
        let dir = CLI.tempDir()
        let text = #"{"nodes": {\#(Self.src), "a": {"type": "y4msink", "params": {"path": "o.y4m"}}, "b": {"type": "rawsink", "params": {"path": "./o.y4m"}}}, "chains": [["src", "a"], ["src", "b"]]}"#
        let column = text.utf8.count - text.components(separatedBy: "\"./o.y4m\"").last!.utf8.count - "\"./o.y4m\"".utf8.count + 1
        let g = CLI.writeGraph(text, in: dir)
        let before = tree(dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(g):1:\(column): error: node 'b' param 'path': output '\(dir)/./o.y4m' is the same file as the output of node 'a' ('\(dir)/o.y4m'); two sinks cannot write one file"), "\(r.stderr)")
        #expect(tree(dir) == before)
        // the same through a directory reached two ways, and standard output twice
        try FileManager.default.createDirectory(atPath: dir + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias", withDestinationPath: dir + "/real")
        let g2 = CLI.writeGraph(#"{"nodes": {\#(Self.src), "a": {"type": "y4msink", "params": {"path": "real/o.y4m"}}, "b": {"type": "y4msink", "params": {"path": "alias/o.y4m"}}, "c": {"type": "framehash"}, "d": {"type": "framehash", "params": {"path": "-"}}}, "chains": [["src", "a"], ["src", "b"], ["src", "c"], ["src", "d"]]}"#, in: dir, name: "g2.json")
        let r2 = try CLI.mediagraph("run", g2)
        #expect(r2.status == 2)
        #expect(r2.stderr.contains("error: node 'b' param 'path': output '\(dir)/alias/o.y4m' is the same file as the output of node 'a' ('\(dir)/real/o.y4m')"), "\(r2.stderr)")
        #expect(r2.stderr.contains("error: node 'd' param 'path': output '-' is standard output, which node 'c' writes too; two sinks cannot write one file"), "\(r2.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir + "/real")) ?? ["?"]).isEmpty)
    }

    /// The output is the input: by the same name, through a symbolic link, through a hard link.
    @Test(arguments: ["in.y4m", "./in.y4m", "link.y4m", "hard.y4m"])
    func outputThatIsAnInputIsRefused(_ output: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "2", dir + "/in.y4m"])
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.y4m", withDestinationPath: "in.y4m")
        try FileManager.default.linkItem(atPath: dir + "/in.y4m", toPath: dir + "/hard.y4m")
        let original = FileManager.default.contents(atPath: dir + "/in.y4m")
        let g = CLI.writeGraph(#"{"nodes": {"src": {"type": "y4msrc", "params": {"path": "in.y4m"}}, "inv": {"type": "invert"}, "out": {"type": "y4msink", "params": {"path": "\#(output)"}}}, "chains": [["src", "inv", "out"]]}"#, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: node 'out' param 'path': output '\(dir)/\(output)' is the input of node 'src' (param 'path', '\(dir)/in.y4m'); writing it would replace what the graph reads"), "\(r.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/in.y4m") == original)
    }

    /// `validate` opens no output and creates no directory, for every kind of sink.
    @Test func validateWritesNothing() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        {"nodes": {\(Self.src), "tone": {"type": "sine", "params": {"seconds": 0.1}},
          "h264": {"type": "h264"}, "vp9": {"type": "vp9"}, "aac": {"type": "aac"},
          "mp4": {"type": "mp4", "params": {"path": "a/b/out.mp4"}}, "frag": {"type": "mp4", "params": {"path": "c/frag.mp4", "fragmented": true}},
          "es": {"type": "h264sink", "params": {"path": "d/out.h264"}}, "ivf": {"type": "ivfsink", "params": {"path": "e/out.ivf"}},
          "adts": {"type": "adtssink", "params": {"path": "f/out.aac"}}, "y4m": {"type": "y4msink", "params": {"path": "g/out.y4m"}},
          "raw": {"type": "rawsink", "params": {"path": "h/out.yuv"}}, "hash": {"type": "framehash", "params": {"path": "i/hash.txt"}}},
         "chains": [["src", "h264", "mp4.video"], ["tone", "aac", "mp4.audio"], ["h264", "frag.video"], ["h264", "es"], ["src", "vp9", "ivf"],
                    ["aac", "adts"], ["src", "y4m"], ["src", "raw"], ["src", "hash"]]}
        """, in: dir)
        let before = tree(dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(tree(dir) == before, "validate changed the directory")
        let d = try CLI.mediagraph("dot", g)
        #expect(d.status == 0)
        #expect(tree(dir) == before, "dot changed the directory")
    }

    /// Links planted at the outputs point at a file the user owns: the run replaces the links
    /// with its files and never writes through them.
    @Test func plantedLinksAtOutputsAreReplacedNotFollowed() throws {
        let dir = CLI.tempDir()
        try "precious".write(toFile: dir + "/victim", atomically: false, encoding: .utf8)
        for n in ["o.y4m", "o.mp4", "f.mp4"] {
            try FileManager.default.createSymbolicLink(atPath: dir + "/" + n, withDestinationPath: dir + "/victim")
        }
        let g = CLI.writeGraph(#"{"nodes": {\#(Self.src), "y": {"type": "y4msink", "params": {"path": "o.y4m"}}, "enc": {"type": "h264"}, "m": {"type": "mp4", "params": {"path": "o.mp4"}}, "f": {"type": "mp4", "params": {"path": "f.mp4", "fragmented": true}}}, "chains": [["src", "y"], ["src", "enc", "m.video"], ["enc", "f.video"]]}"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/victim", encoding: .utf8) == "precious")
        for n in ["o.y4m", "o.mp4", "f.mp4"] {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + n)) == nil, "\(n) is still a link")
            let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/" + n, "-f", "null", "-"])
            #expect(check.status == 0 && check.stderr.isEmpty, "\(n): \(check.stderr)")
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() == ["f.mp4", "g.json", "o.mp4", "o.y4m", "victim"])
    }

    /// SIGKILL in the middle of a non-fragmented MP4 and a Y4M: no temporary file is left, and
    /// the next run writes both.
    @Test func killedRunLeavesNoTemporaryFile() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{"nodes": {"src": {"type": "testsrc", "params": {"width": 320, "height": 240, "frames": 100000}}, "y": {"type": "y4msink", "params": {"path": "o.y4m"}}, "enc": {"type": "h264", "params": {"preset": "ultrafast"}}, "m": {"type": "mp4", "params": {"path": "o.mp4"}}}, "chains": [["src", "y"], ["src", "enc", "m.video"]]}"#, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        p.standardError = FileHandle.nullDevice
        try p.run()
        CLI.waitForOutput(in: dir, prefix: ".o.", pid: p.processIdentifier)
        Thread.sleep(forTimeInterval: 0.5)
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []) == ["g.json"])
        let again = try CLI.mediagraph(["run", "--quiet", g, "--set", "src.frames=3"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() == ["g.json", "o.mp4", "o.y4m"])
    }

    /// Missing directories on the way to an output are made; a file where one should be is named.
    @Test func outputDirectoriesAreMadeOrTheFileInTheWayIsNamed() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{"nodes": {\#(Self.src), "y": {"type": "y4msink", "params": {"path": "new/sub/o.y4m"}}}, "chains": [["src", "y"]]}"#, in: dir)
        let made = try CLI.mediagraph("run", "--quiet", g)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/new/sub/o.y4m"))
        try "x".write(toFile: dir + "/afile", atomically: false, encoding: .utf8)
        let r = try CLI.mediagraph(["run", "--quiet", g, "--set", "y.path=\(dir)/afile/sub/o.y4m"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: node 'y' (y4msink): cannot create directory '\(dir)/afile/sub' for '\(dir)/afile/sub/o.y4m': '\(dir)/afile' is a file, not a directory"), "\(r.stderr)")
    }

    /// A full disk: exit 1, the file, offset and reason, and nothing left on it.
    @Test func fullDiskFailsCleanly() throws {
        let dir = CLI.tempDir()
        guard mount("tmpfs", dir, "tmpfs", 0, "size=256k") == 0 else {
            Issue.record("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount(dir) }
        let g = CLI.writeGraph(#"{"nodes": {"src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 200}}, "y": {"type": "y4msink", "params": {"path": "o.y4m"}}}, "chains": [["src", "y"]]}"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: node 'y' (y4msink): cannot write '\(dir)/o.y4m' at byte "), "\(r.stderr)")
        #expect(r.stderr.contains(": No space left on device (the disk is full)"), "\(r.stderr)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []) == ["g.json"])
    }
}
