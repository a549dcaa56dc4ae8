import Foundation
import Testing

/// Examples/CustomFilter is a package of its own that depends on MediaGraph by version through a
/// git URL, declares a filter (`threshold`) and runs it in a graph. Here it is built as a user
/// would build it (scripts/build-example.sh): against a tagged git clone of this checkout (its URL
/// redirected there with `swift package config set-mirror`), offline. SwiftPM refuses a versioned
/// dependency whose targets carry unsafe flags (`-Ounchecked`, `-Xcc -mavx2`), so this keeps that
/// from coming back; it also resolves MediaGraph's own dependency (swift-argument-parser) in that
/// setting.
///
/// The clone is of the committed HEAD (what a user's `from: "1.0.0"` gets), so uncommitted
/// changes are not in it. `make test` runs the script beside the main build; when its build of
/// this HEAD is there (waited for while it runs), the test builds again in it (nothing left to
/// compile if nothing changed) rather than compiling MediaGraph in debug while the other tests
/// take both cores.
struct CustomFilterPackageTests {
    @Test(.timeLimit(.minutes(20)))
    func exampleBuildsAgainstATaggedCloneAndMatchesFFmpeg() throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        @discardableResult
        func run(_ program: String, _ args: [String], cwd: String? = nil) throws -> CLI.Result {
            let r = try CLI.run(program, args, cwd: cwd)
            try #require(r.status == 0, "\(program) \(args.joined(separator: " ")) failed (\(r.status)):\n\(r.stderr.suffix(4000))")
            return r
        }

        let head = try run("git", ["-C", CLI.root, "rev-parse", "HEAD"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let early = CLI.root + "/.build/example-check"
        Self.waitForTheEarlyBuild(early)
        let builtEarly = (try? String(contentsOfFile: early + "/commit", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == head
        let built = builtEarly ? early : dir + "/build"
        if !builtEarly { try run(CLI.root + "/scripts/build-example.sh", [built]) }
        let example = built + "/CustomFilter"
        // No shared repository cache: each run's clone is new, and caching it would only grow the cache.
        // fingerprint mismatches only warn: every commit is tagged 1.0.0 anew (scripts/build-example.sh)
        try run("swift", ["build", "--package-path", example, "--disable-dependency-cache", "--resolver-fingerprint-checking", "warn"])
        let resolved = try String(contentsOfFile: example + "/Package.resolved", encoding: .utf8)
        #expect(resolved.contains("\"version\" : \"1.0.0\""), "MediaGraph not resolved by version:\n\(resolved)")
        #expect(resolved.contains("swift-argument-parser"), "swift-argument-parser not resolved:\n\(resolved)")
        #expect(resolved.contains(head), "MediaGraph resolved at another commit than HEAD \(head):\n\(resolved)")

        // Three small testsrc2 frames through the example's graph and through ffmpeg's lutrgb.
        let (w, h, level) = (96, 64, 100)
        let input = dir + "/in.rgba", output = dir + "/out.rgba", reference = dir + "/ref.rgba"
        try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(w)x\(h):rate=25", "-frames:v", "3",
                           "-pix_fmt", "rgba", "-f", "rawvideo", input])
        try run(example + "/.build/debug/custom-filter", [input, String(w), String(h), output, String(level)])
        let lut = "if(gte(val\\,\(level))\\,255\\,0)"
        try run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-i", input,
                           "-vf", "lutrgb=r=\(lut):g=\(lut):b=\(lut):a=val", "-pix_fmt", "rgba", "-f", "rawvideo", reference])
        let ours = try Data(contentsOf: URL(fileURLWithPath: output))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: reference))
        let source = try Data(contentsOf: URL(fileURLWithPath: input))
        #expect(ours.count == w * h * 4 * 3 && ours == theirs, "custom-filter's output differs from ffmpeg's lutrgb")
        // And the formula itself, so the reference is not trusted blindly.
        let formula = Data(source.enumerated().map { i, v in i % 4 == 3 ? v : (Int(v) >= level ? 255 : 0) })
        #expect(ours == formula)
    }

    /// `make test` starts scripts/build-example.sh beside `swift test`, which builds and then
    /// runs this: while that build goes on (DIR/building names its live process), wait for it
    /// rather than compile MediaGraph a second time. A script killed midway leaves a dead id.
    static func waitForTheEarlyBuild(_ dir: String) {
        let deadline = Date().addingTimeInterval(20 * 60)
        while Date() < deadline,
              let text = try? String(contentsOfFile: dir + "/building", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0 {
            Thread.sleep(forTimeInterval: 1)
        }
    }
}
