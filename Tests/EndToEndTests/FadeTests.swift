import Foundation
import Testing

/// `fade` against ffmpeg 5.1's `fade` filter (time based) on the same raw frames: the same
/// bytes, fading in and out, spans that start and last off the frame grid, every format it takes.
@Suite struct FadeTests {
    static let spans: [(type: String, start: String, duration: String)] = [("in", "0.5", "1"), ("out", "1.2", "0.7"), ("in", "0.33", "2"), ("out", "0", "3")]

    @Test(arguments: [("yuv420p", "limited"), ("yuv422p", "limited"), ("yuv444p", "limited"), ("yuv420p", "full"), ("rgba", "full"), ("bgra", "full")])
    func framesAreFFmpegs(_ format: String, _ range: String) throws {
        let dir = CLI.tempDir()
        let r0 = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=66x38:rate=25:duration=3", "-pix_fmt", format,
                                        "-f", "rawvideo", dir + "/in.raw"])
        #expect(r0.status == 0, "\(r0.stderr)")
        var nodes = [#""src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 66, "height": 38, "format": "\#(format)", "rate": 25\#(format.hasPrefix("yuv") ? #", "range": "\#(range)""# : "") } }"#]
        var chains: [String] = []
        for (k, s) in Self.spans.enumerated() {
            nodes.append(#""f\#(k)": { "type": "fade", "params": { "type": "\#(s.type)", "start": \#(s.start), "duration": \#(s.duration) } }, "o\#(k)": { "type": "rawsink", "params": { "path": "ours\#(k).raw" } }"#)
            chains.append(#"["src", "f\#(k)", "o\#(k)"]"#)
        }
        let g = CLI.writeGraph(#"{ "nodes": { \#(nodes.joined(separator: ", ")) }, "chains": [\#(chains.joined(separator: ", "))] }"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        // ffmpeg's studio black (16) is for limited-range YUV only: full range is yuvj there
        let ffFormat = range == "full" && format.hasPrefix("yuv") ? format.replacingOccurrences(of: "yuv", with: "yuvj") : format
        for (k, s) in Self.spans.enumerated() {
            let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", ffFormat, "-s", "66x38", "-r", "25", "-i", dir + "/in.raw",
                                           "-vf", "fade=t=\(s.type):st=\(s.start):d=\(s.duration)", "-f", "rawvideo", dir + "/theirs\(k).raw"])
            #expect(f.status == 0, "\(f.stderr)")
            let ours = FileManager.default.contents(atPath: dir + "/ours\(k).raw"), theirs = FileManager.default.contents(atPath: dir + "/theirs\(k).raw")
            #expect(ours != nil && ours == theirs, "\(format) \(range) fade=t=\(s.type):st=\(s.start):d=\(s.duration): \(ours?.count ?? 0) vs \(theirs?.count ?? 0) bytes")
        }
    }
}
