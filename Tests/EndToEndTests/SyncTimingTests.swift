import Foundation
import Testing

/// The timing test: inputs at 24, 25 and 30 fps with different offsets, each frame a
/// solid grey level that encodes its index (made by ffmpeg's geq), stacked; every output frame
/// must show, for each input, the frame the rule gives (Docs/multi-input.md): one output per
/// frame of the first input, at t = k/30; input i shows its last frame j with j/rate + offset ≤ t.
@Suite struct SyncTimingTests {
    static let size = 8

    /// ffmpeg writes `frames` grey frames at `rate`, frame N at level 20 + 8N.
    static func numberedFrames(_ dir: String, rate: Int, frames: Int) throws -> String {
        let path = "\(dir)/n\(rate).raw"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=\(size)x\(size):r=\(rate),format=gray,geq=lum='20+8*N'",
                                       "-frames:v", "\(frames)", "-f", "rawvideo", path])
        #expect(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test(arguments: ["first", "longest"])
    func everyOutputFrameTakesTheFrameTheRuleGives(end: String) throws {
        let dir = CLI.tempDir()
        let rates = [30, 25, 24], counts = [30, 20, 20]
        let offsets = [0.0, 0.1, 0.25]
        let paths = try zip(rates, counts).map { try Self.numberedFrames(dir, rate: $0, frames: $1) }
        let nodes = rates.indices.map { k in
            "\"s\(k)\": { \"type\": \"rawsrc\", \"params\": { \"path\": \"\(paths[k])\", \"width\": \(Self.size), \"height\": \(Self.size), \"format\": \"gray\", \"rate\": \"\(rates[k])/1\" } }"
        }.joined(separator: ", ")
        let graph = CLI.writeGraph("""
        { "nodes": { \(nodes),
                     "st": { "type": "stack", "params": { "end": "\(end)", "offsets": [0, 0.1, 0.25] } },
                     "out": { "type": "rawsink", "params": { "path": "\(dir)/out.raw" } } },
          "chains": [["s2", "st.in2"], ["s0", "st.in"], ["s1", "st.in1"], ["st", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", graph)
        #expect(r.status == 0, "\(r.stderr)")
        let out = [UInt8](FileManager.default.contents(atPath: "\(dir)/out.raw") ?? Data())
        let frameBytes = 3 * Self.size * Self.size
        // first: the 30 frames of the 30 fps input. longest: then on at 1/30 s until the last
        // input ends: in2's 20 frames end at 0.25 + 20/24 s = 1.0833 s, so t = k/30 < 1.0833: k ≤ 32.
        let expectedCount = end == "first" ? 30 : 33
        #expect(out.count == expectedCount * frameBytes, "\(out.count / frameBytes) frames")
        var wrong: [String] = []
        for k in 0..<min(expectedCount, out.count / frameBytes) {
            for i in 0..<3 {
                // exact in integers: j/rate + offset ≤ k/30  ⇔  j ≤ (k/30 - offset) × rate
                let limit = (Double(k) / 30 - offsets[i]) * Double(rates[i])
                let j = Int((limit + 1e-9).rounded(.down))
                // an input shows its last frame once it has ended (ended: hold); before it starts, black (16)
                let level = j < 0 ? 16 : 20 + 8 * min(j, counts[i] - 1)
                let got = out[k * frameBytes + i * Self.size]
                if Int(got) != level { wrong.append("output \(k) input \(i): level \(got), expected \(level)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }
}
