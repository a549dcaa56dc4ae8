import Foundation
import Testing

/// Exit codes as `mediagraph --help` documents them: 2 for bad arguments, whether the argument
/// parser or a command finds them, with the parser's message kept; 0 for help.
@Suite struct CommandLineExitCodeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var args: [String]
        var message: String
        var testDescription: String { args.joined(separator: " ") }
    }

    static let usageErrors: [Case] = [
        Case(args: ["run"], message: "Error: Missing expected argument '<graph>'"),
        Case(args: ["run", "Graphs/demo.json", "--bogus"], message: "Error: Unknown option '--bogus'"),
        Case(args: ["run", "Graphs/demo.json", "--set"], message: "Error: Missing value for '--set <id.param=value>'"),
        Case(args: ["run", "Graphs/demo.json", "--queue-capacity", "many"], message: "Error: The value 'many' is invalid for '--queue-capacity <queue-capacity>'"),
        Case(args: ["probe"], message: "Error: Missing expected argument"),
        Case(args: ["frobnicate"], message: "Error: Unexpected argument 'frobnicate'"),
        Case(args: ["thumbnails", "in.mp4", "-n", "three"], message: "Error: The value 'three' is invalid for '-n <count>'"),
    ]

    @Test(arguments: usageErrors)
    func parserErrorsExitTwo(_ c: Case) throws {
        let r = try CLI.mediagraph(c.args)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix(c.message), "\(r.stderr)")
        #expect(r.stderr.contains("Usage: mediagraph"), "the parser's usage line is kept: \(r.stderr)")
    }

    @Test func helpExitsZero() throws {
        for args in [["--help"], ["run", "--help"], ["help", "thumbnails"]] {
            let r = try CLI.mediagraph(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.out.contains("USAGE: mediagraph"), "\(args): \(r.out)")
        }
    }

    /// `--version` names our version and the libraries as loaded; ffmpeg, which loads the same
    /// system libraries, reports the same versions for those it shares.
    @Test func versionMatchesTheLibrariesFFmpegLoads() throws {
        let r = try CLI.mediagraph(["--version"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("mediagraph ") == true, "\(r.out)")
        #expect(lines.contains { $0.hasPrefix("plugin ABI ") }, "\(r.out)")
        let ffmpeg = try CLI.run("ffmpeg", ["-hide_banner", "-version"])
        var compared = 0
        for line in ffmpeg.out.split(separator: "\n") where line.hasPrefix("lib") {
            // "libavcodec     59. 37.100 / 59. 37.100": the part after "/" is the loaded library's
            let name = String(line.prefix { $0 != " " })
            guard ["libavcodec", "libavformat", "libswscale", "libswresample"].contains(name),
                  let loaded = line.split(separator: "/").last else { continue }
            let version = loaded.filter { $0 != " " }
            #expect(r.out.contains("\(name) \(version)"), "ffmpeg loads \(name) \(version); we print: \(r.out)")
            compared += 1
        }
        #expect(compared == 4, "ffmpeg -version: \(ffmpeg.out)")
    }

    /// `run --quiet` drops the summary and notes but keeps warnings, those found at validation too.
    @Test func quietKeepsWarnings() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 3 } },
                     "inv": { "type": "invert" }, "h": { "type": "framehash", "params": { "path": "h.txt" } } },
          "chains": [["src", "h"], ["src", "inv"]] }
        """, in: dir)
        let loud = try CLI.mediagraph("run", g), quiet = try CLI.mediagraph("run", "--quiet", g)
        let warning = "warning: output 'out' of node 'inv' (invert) is connected nowhere; its buffers are dropped"
        #expect(loud.status == 0 && loud.stderr.contains(warning) && loud.stderr.contains("done: 3 frames"), "\(loud.stderr)")
        #expect(quiet.status == 0 && quiet.stderr.hasSuffix(warning + "\n") && !quiet.stderr.contains("done:"), "\(quiet.stderr)")
    }

    /// `plugins` lists what failed to load; a file the user named that fails makes it exit 1,
    /// as `run` refuses it (before: exit 0).
    @Test func pluginsExitsOneWhenANamedPluginFails() throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/not-a-plugin.so", contents: Data("text".utf8)))
        let bad = try CLI.mediagraph(["plugins", "--plugin", dir + "/not-a-plugin.so"])
        #expect(bad.status == 1 && bad.out.contains("failed (") && bad.out.contains("not-a-plugin.so"), "\(bad.out)\(bad.stderr)")
        let none = try CLI.mediagraph(["plugins"])
        #expect(none.status == 0, "\(none.out)\(none.stderr)")
    }

    /// Every thumbnails option problem is found before the file is opened: exit 2, even for a
    /// file that does not exist.
    @Test func thumbnailArgumentsExitTwoBeforeTheFileIsRead() throws {
        let cases: [([String], String)] = [
            (["-n", "3", "-o", "th/x.jpg"], "error: thumbnails: output 'th/x.jpg' has no %d or %t field: every picture would get the same name"),
            (["-o", "th-%d.bmp"], "error: thumbnails: cannot tell the picture format from 'th-%d.bmp': expected .png, .jpg, .jpeg or .webp"),
            (["-o", "th-%q.jpg"], "error: thumbnails: param 'output': "),
            (["--sheet", "sheet.gif"], "error: thumbnails: cannot tell the sheet's format from 'sheet.gif': expected .png, .jpg, .jpeg or .webp"),
            (["--sheet", "sheet.png", "--columns", "0"], "error: thumbnails: columns: expected 1...100, found 0"),
            (["-n", "0"], "error: --count: expected 1...1000, found 0"),
        ]
        let dir = CLI.tempDir()
        for (args, message) in cases {
            let r = try CLI.run(CLI.binary, ["thumbnails", "missing.mp4"] + args, cwd: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
        // a file that cannot be read is a run-time error
        let r = try CLI.run(CLI.binary, ["thumbnails", "missing.mp4", "-n", "3"], cwd: dir)
        #expect(r.status == 1 && r.stderr.contains("missing.mp4"), "\(r.stderr)")
    }
}
