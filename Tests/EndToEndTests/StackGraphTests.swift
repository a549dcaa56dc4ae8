import Foundation
import Testing

/// `stack` against ffmpeg's hstack / vstack / xstack on the same raw inputs: identical bytes.
@Suite struct StackGraphTests {
    /// Writes `frames` raw frames of an ffmpeg test pattern (`lavfi` source) and returns the path.
    static func rawInput(_ dir: String, _ name: String, _ pattern: String, size: String, format: String, frames: Int) throws -> String {
        let path = "\(dir)/\(name).raw"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=\(size):rate=25", "-frames:v", "\(frames)",
                                       "-pix_fmt", format, "-f", "rawvideo", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    /// Our stack of `inputs` (path, width, height) and ffmpeg's `filter` on the same files.
    func compare(layout: String, columns: Int = 2, format: String, inputs: [(String, Int, Int)], filter: String, dir: String) throws {
        let nodes = inputs.enumerated().map { k, i in
            "\"s\(k)\": { \"type\": \"rawsrc\", \"params\": { \"path\": \"\(i.0)\", \"width\": \(i.1), \"height\": \(i.2), \"format\": \"\(format)\" } }"
        }.joined(separator: ", ")
        let chains = inputs.indices.map { "[\"s\($0)\", \"st.in\($0 == 0 ? "" : String($0))\"]" }.joined(separator: ", ")
        let graph = CLI.writeGraph("""
        { "nodes": { \(nodes), "st": { "type": "stack", "params": { "layout": "\(layout)", "columns": \(columns) } },
                     "out": { "type": "rawsink", "params": { "path": "\(dir)/ours-\(layout).raw" } } },
          "chains": [\(chains), ["st", "out"]] }
        """, in: dir, name: "stack-\(layout).json")
        let r = try CLI.mediagraph("run", graph)
        #expect(r.status == 0, "\(r.stderr)")
        var args = ["-v", "error", "-y"]
        for i in inputs { args += ["-f", "rawvideo", "-pix_fmt", format, "-s", "\(i.1)x\(i.2)", "-r", "25", "-i", i.0] }
        args += ["-filter_complex", filter, "-f", "rawvideo", "\(dir)/ffmpeg-\(layout).raw"]
        let f = try CLI.run("ffmpeg", args)
        #expect(f.status == 0, "\(f.stderr)")
        let ours = FileManager.default.contents(atPath: "\(dir)/ours-\(layout).raw") ?? Data()
        let theirs = FileManager.default.contents(atPath: "\(dir)/ffmpeg-\(layout).raw") ?? Data()
        #expect(!ours.isEmpty && ours == theirs, "\(layout): \(ours.count) bytes vs ffmpeg's \(theirs.count)")
    }

    @Test func horizontalVerticalAndGridMatchFFmpegsStacks() throws {
        let dir = CLI.tempDir()
        let a = try Self.rawInput(dir, "a", "testsrc2", size: "64x48", format: "yuv420p", frames: 5)
        let b = try Self.rawInput(dir, "b", "smptebars", size: "32x48", format: "yuv420p", frames: 5)
        let c = try Self.rawInput(dir, "c", "rgbtestsrc", size: "64x32", format: "yuv420p", frames: 5)
        try compare(layout: "horizontal", format: "yuv420p", inputs: [(a, 64, 48), (b, 32, 48)], filter: "hstack=inputs=2", dir: dir)
        try compare(layout: "vertical", format: "yuv420p", inputs: [(a, 64, 48), (c, 64, 32)], filter: "vstack=inputs=2", dir: dir)
        let d = try Self.rawInput(dir, "d", "testsrc", size: "64x48", format: "yuv420p", frames: 5)
        let e = try Self.rawInput(dir, "e", "smptebars", size: "64x48", format: "yuv420p", frames: 5)
        let g = try Self.rawInput(dir, "g", "rgbtestsrc", size: "64x48", format: "yuv420p", frames: 5)
        try compare(layout: "grid", format: "yuv420p", inputs: [(a, 64, 48), (d, 64, 48), (e, 64, 48), (g, 64, 48)],
                    filter: "xstack=inputs=4:layout=0_0|w0_0|0_h0|w0_h0", dir: dir)
    }

    @Test func rgbaHorizontalStackMatchesHstack() throws {
        let dir = CLI.tempDir()
        let a = try Self.rawInput(dir, "a", "testsrc2", size: "40x30", format: "rgba", frames: 3)
        let b = try Self.rawInput(dir, "b", "rgbtestsrc", size: "24x30", format: "rgba", frames: 3)
        try compare(layout: "horizontal", format: "rgba", inputs: [(a, 40, 30), (b, 24, 30)], filter: "hstack=inputs=2", dir: dir)
    }

    /// `end: first` ends the output with the first input, and the engine stops an endless second
    /// input (a test source without a frame count, behind an inline filter) instead of waiting.
    @Test func anEndlessInputStopsWhenTheOutputEnds() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
        { "nodes": { "a": { "type": "testsrc", "params": { "width": 32, "height": 16, "frames": 12 } },
                     "b": { "type": "testsrc", "params": { "width": 32, "height": 16, "frames": 0 } },
                     "inv": { "type": "invert" }, "st": { "type": "stack", "params": { "end": "first" } },
                     "out": { "type": "rawsink", "params": { "path": "\(dir)/out.raw" } } },
          "chains": [["a", "st"], ["b", "inv", "st.in1"], ["st", "out"]] }
        """, in: dir)
        let r = try CLI.run("timeout", ["60", CLI.binary, "run", "--quiet", graph])
        #expect(r.status == 0, "\(r.status): \(r.stderr)")
        let bytes = FileManager.default.contents(atPath: "\(dir)/out.raw")?.count ?? 0
        let frameBytes = 64 * 16 * 3 / 2
        #expect(bytes == 12 * frameBytes)
    }

    /// Inputs of other sizes meet the first through visible `scale` nodes, keeping their aspect
    /// (horizontal: the first's height, vertical: its width): the same bytes as ffmpeg scaling
    /// them with the same algorithm before hstack / vstack.
    @Test func otherSizesAreScaledVisiblyAsFFmpegWould() throws {
        let dir = CLI.tempDir()
        let a = try Self.rawInput(dir, "a", "testsrc2", size: "64x48", format: "yuv420p", frames: 3)
        let b = try Self.rawInput(dir, "b", "smptebars", size: "32x16", format: "yuv420p", frames: 3)
        let c = try Self.rawInput(dir, "c", "rgbtestsrc", size: "32x32", format: "yuv420p", frames: 3)
        // 32x16 to height 48 keeps 2:1 → 96x48; 32x32 to width 64 → 64x64
        try compare(layout: "horizontal", format: "yuv420p", inputs: [(a, 64, 48), (b, 32, 16)],
                    filter: "[1]scale=96:48:flags=bicubic[b];[0][b]hstack=inputs=2", dir: dir)
        try compare(layout: "vertical", format: "yuv420p", inputs: [(a, 64, 48), (c, 32, 32)],
                    filter: "[1]scale=64:64:flags=bicubic[c];[0][c]vstack=inputs=2", dir: dir)
        let graph = CLI.writeGraph("""
        { "nodes": { "a": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1 } },
                     "b": { "type": "testsrc", "params": { "width": 64, "height": 32, "frames": 1 } },
                     "st": { "type": "stack" }, "out": { "type": "nullsink" } },
          "chains": [["a", "st.in"], ["b", "st.in1"], ["st", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", graph)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("(scale)") && r.out.contains("96x48"), "\(r.out)")
    }

    /// Two branches of one source whose offsets differ by more than the frames a synchroniser
    /// holds: an error that says what waits, at which output time (to the millisecond), and the
    /// fix, not a hang or unbounded memory.
    @Test func branchesOfOneSourceFarApartInTimeSayWhy() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 600}}, "st": {"type": "stack", "params": {"offsets": [0, 15]}}, "o": {"type": "nullsink"}}, "chains": [["a", "st.in"], ["a", "st.in1"], ["st", "o"]]}"#, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: node 'st' (stack): input 'in1' has 256 frames waiting for their time while the output is at "), "\(r.stderr)")
        #expect(r.stderr.range(of: #"output is at [0-9]+\.[0-9]{3} s, and the other inputs send no frames for that time: are they branches of one source whose offsets differ by more than 256 frames\? \(the source cannot run ahead on one branch and behind on the other; put the offset on a source of its own\)"#, options: .regularExpression) != nil, "\(r.stderr)")
    }
}
