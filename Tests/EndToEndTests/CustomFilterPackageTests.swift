import Foundation
import Testing

/// Examples/CustomFilter is a package of its own that depends on MediaGraph by version through a
/// git URL, declares a filter (`threshold`) and runs it in a graph. Here it is built as a user
/// would build it: against a tagged git clone of this checkout (its URL redirected there with
/// `swift package config set-mirror`), offline. SwiftPM refuses a versioned dependency whose
/// targets carry unsafe flags (`-Ounchecked`, `-Xcc -mavx2`), so this keeps that from coming back;
/// it also resolves MediaGraph's own dependency (swift-argument-parser) in that setting.
///
/// The clone is of the committed HEAD (what a user's `from: "1.0.0"` gets), so uncommitted
/// changes are not in it.
struct CustomFilterPackageTests {
    static let exampleURL = "https://github.com/mediagraph/MediaGraph.git"

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

        // MediaGraph as a user's dependency: a clone of this checkout, tagged 1.0.0.
        let clone = dir + "/MediaGraph"
        try run("git", ["clone", "--quiet", "--no-local", "--depth", "1", "file://" + CLI.root, clone])
        try run("git", ["-C", clone, "tag", "1.0.0"])

        // The example, copied out of the checkout, with the URL it names pointed at the clone.
        let example = dir + "/CustomFilter"
        try FileManager.default.createDirectory(atPath: example, withIntermediateDirectories: true)
        for item in ["Package.swift", "Sources"] {
            try FileManager.default.copyItem(atPath: CLI.root + "/Examples/CustomFilter/" + item, toPath: example + "/" + item)
        }
        try run("swift", ["package", "--package-path", example, "config", "set-mirror",
                          "--original", Self.exampleURL, "--mirror", "file://" + clone])
        // No shared repository cache: each run's clone is new, and caching it would only grow the cache.
        try run("swift", ["build", "--package-path", example, "--disable-dependency-cache"])
        let resolved = try String(contentsOfFile: example + "/Package.resolved", encoding: .utf8)
        #expect(resolved.contains("\"version\" : \"1.0.0\""), "MediaGraph not resolved by version:\n\(resolved)")
        #expect(resolved.contains("swift-argument-parser"), "swift-argument-parser not resolved:\n\(resolved)")

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
}
