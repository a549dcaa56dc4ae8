import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import Testing

/// Colour maps that mix Y' with Cb and Cr (sepia, rgb, colormatrix) on YUV frames: one pass in
/// the frame's layout, no converter, against ffmpeg's route through RGB (Docs/filters.md, "On
/// YUV frames").
@Suite struct YUVMixingMapTests {
    /// Each filter as our node and as ffmpeg's colorchannelmixer with the same rows.
    static let cases: [(node: String, ffmpeg: String)] = [
        ("{ \"type\": \"sepia\" }", "rr=0.3588:rg=0.7044:rb=0.1368:gr=0.2990:gg=0.5870:gb=0.1140:br=0.2392:bg=0.4696:bb=0.0912"),
        ("{ \"type\": \"rgb\", \"params\": { \"red\": 1.3, \"green\": 0.8, \"blue\": 0.6 } }", "rr=1.3:gg=0.8:bb=0.6"),
        ("{ \"type\": \"colormatrix\", \"params\": { \"matrix\": [0.9, 0.3, -0.2, 0, -0.4, 1.2, 0.1, 0, 0.2, -0.5, 1.1, 0, 0, 0, 0, 1] } }",
         "rr=0.9:rg=0.3:rb=-0.2:gr=-0.4:gg=1.2:gb=0.1:br=0.2:bg=-0.5:bb=1.1"),
    ]

    /// testsrc2 on YUV through each filter: no converter in the graph, and every byte within 2
    /// of ffmpeg taking the same route through RGB — each pixel with its own chroma sample
    /// (neighbor, full_chroma_int), colorchannelmixer on rgb24, chroma the mean of the pixels
    /// (area), accurate rounding. The 2 is ffmpeg's arithmetic: colorchannelmixer's 8-bit path
    /// rounds each term of its sums to an integer, and rgb24 rounds again. (ffmpeg's
    /// default route resamples chroma bicubically both ways: up to 21 apart from ours next to
    /// chroma edges where a clamp acts, measured on testsrc2 at 1080p.)
    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p"])
    func mixingMapsAreOnePassAsFFmpegsRouteThroughRGB(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        let (w, h) = (640, 360)
        let input = dir + "/in.yuv"
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=\(w)x\(h):rate=25", "-frames:v", "5",
                               "-pix_fmt", pixfmt, "-f", "rawvideo", input])
        for (k, c) in Self.cases.enumerated() {
            let ours = dir + "/ours-\(k).yuv", theirs = dir + "/ffmpeg-\(k).yuv"
            let json = """
            { "nodes": { "src": { "type": "rawsrc", "params": { "path": "\(input)", "width": \(w), "height": \(h), "format": "\(pixfmt)" } },
                         "f": \(c.node), "out": { "type": "rawsink", "params": { "path": "\(ours)" } } },
              "chains": [["src", "f", "out"]] }
            """
            let g = try FusionTests.run(json)
            #expect(g.nodes.map(\.id) == ["src", "f", "out"], "\(c.node): \(g.nodes.map(\.id))")
            try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", pixfmt, "-s", "\(w)x\(h)", "-i", input,
                                   "-vf", "scale=flags=neighbor+accurate_rnd+full_chroma_int,format=rgb24,colorchannelmixer=\(c.ffmpeg),"
                                   + "scale=flags=area+accurate_rnd+full_chroma_inp,format=\(pixfmt)", "-f", "rawvideo", theirs])
            let a = FusionTests.bytes(ours), b = FusionTests.bytes(theirs)
            try #require(!a.isEmpty && a.count == b.count, "\(a.count) bytes against ffmpeg's \(b.count)")
            let source = FusionTests.bytes(input)
            #expect(largestDifference(a, source) > 20, "\(c.node) changed nothing")
            let total = zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(largestDifference(a, b) <= 2, "\(c.node) on \(pixfmt): \(largestDifference(a, b)) from ffmpeg's")
            #expect(Double(total) / Double(a.count) < 0.25, "\(c.node) on \(pixfmt): mean \(Double(total) / Double(a.count)) from ffmpeg's")
        }
    }

    /// A graph file: raw 385x289 input → setparams (matrix, range) → the filters → raw output.
    static func graph(_ filters: [String], input: String, output: String, pixfmt: String, matrix: String, range: String, top: String = "") -> String {
        let ids = filters.indices.map { "f\($0)" }
        let nodes = zip(ids, filters).map { "\"\($0)\": \($1)" }.joined(separator: ", ")
        let chain = (["src", "tag"] + ids + ["out"]).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        { \(top) "nodes": { "src": { "type": "rawsrc", "params": { "path": "\(input)", "width": 385, "height": 289, "format": "\(pixfmt)" } },
                     "tag": { "type": "setparams", "params": { "matrix": "\(matrix)", "range": "\(range)" } },
                     \(nodes), "out": { "type": "rawsink", "params": { "path": "\(output)" } } },
          "chains": [[\(chain)]] }
        """
    }

    /// A stage as its node and its formula on R'G'B' in 0…1 (w: the frame's luma weights).
    typealias Stage = (node: String, map: (SIMD3<Double>, SIMD3<Double>) -> SIMD3<Double>)

    /// One of sepia, rgb and colormatrix with random params, written out from their definitions.
    static func randomMixingStage(_ rng: inout SplitMix) -> Stage {
        func r(_ lo: Double, _ hi: Double) -> Double { (lo + (hi - lo) * rng.unit() * 1000).rounded() / 1000 }
        switch rng.next() % 3 {
        case 0:
            let t = r(0, 1)
            return ("{ \"type\": \"sepia\", \"params\": { \"intensity\": \(t) } }", { c, _ in
                let s = SIMD3((SIMD3(0.3588, 0.7044, 0.1368) * c).sum(), (SIMD3(0.2990, 0.5870, 0.1140) * c).sum(),
                              (SIMD3(0.2392, 0.4696, 0.0912) * c).sum())
                return c * (1 - t) + s * t
            })
        case 1:
            let g = SIMD3(r(0.3, 1.8), r(0.3, 1.8), r(0.3, 1.8))
            return ("{ \"type\": \"rgb\", \"params\": { \"red\": \(g.x), \"green\": \(g.y), \"blue\": \(g.z) } }", { c, _ in c * g })
        default:
            let m = (0..<9).map { k in k % 4 == 0 ? r(0.5, 1.3) : r(-0.4, 0.4) }, o = (0..<3).map { _ in r(-0.1, 0.1) }
            let rows = [0, 3, 6].map { "\(m[$0]), \(m[$0 + 1]), \(m[$0 + 2]), 0" }.joined(separator: ", ")
            return ("{ \"type\": \"colormatrix\", \"params\": { \"matrix\": [\(rows), 0, 0, 0, 1], \"offset\": [\(o[0]), \(o[1]), \(o[2]), 0] } }",
                    { c, _ in SIMD3((0..<3).map { i in m[3 * i] * c.x + m[3 * i + 1] * c.y + m[3 * i + 2] * c.z + o[i] }) })
        }
    }

    /// The route of `stages` on one frame of Y'CbCr bytes, unrounded: each pixel with the chroma
    /// sample covering it to R'G'B' (clamped), each stage clamped, back; chroma the mean.
    static func route(_ frame: ArraySlice<UInt8>, _ pixfmt: String, _ stages: [Stage], w: SIMD3<Double>, full: Bool) -> [Double] {
        let (width, height) = (385, 289)
        let (sx, sy) = pixfmt == "yuv420p" ? (1, 1) : pixfmt == "yuv422p" ? (1, 0) : (0, 0)
        let cw = (width + (1 << sx) - 1) >> sx, ch = (height + (1 << sy) - 1) >> sy
        let (black, lumaSpan, chromaSpan) = full ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        let base = frame.startIndex, cbAt = base + width * height, crAt = cbAt + cw * ch
        var out = [Double](repeating: 0, count: width * height + 2 * cw * ch)
        for cy in 0..<ch {
            for cx in 0..<cw {
                let pb = (Double(frame[cbAt + cy * cw + cx]) - 128) / chromaSpan, pr = (Double(frame[crAt + cy * cw + cx]) - 128) / chromaSpan
                var cb = 0.0, cr = 0.0, n = 0.0
                for y in (cy << sy)..<min(height, (cy + 1) << sy) {
                    for x in (cx << sx)..<min(width, (cx + 1) << sx) {
                        let l = (Double(frame[base + y * width + x]) - black) / lumaSpan
                        let r = l + 2 * (1 - w.x) * pr, b = l + 2 * (1 - w.z) * pb
                        var c = SIMD3(r, (l - w.x * r - w.z * b) / w.y, b).clamped(lowerBound: .zero, upperBound: .one)
                        for s in stages { c = s.map(c, w).clamped(lowerBound: .zero, upperBound: .one) }
                        let l2 = (c * w).sum()
                        out[y * width + x] = black + lumaSpan * l2
                        cb += 128 + chromaSpan * (c.z - l2) / (2 * (1 - w.z))
                        cr += 128 + chromaSpan * (c.x - l2) / (2 * (1 - w.x))
                        n += 1
                    }
                }
                out[width * height + cy * cw + cx] = cb / n
                out[width * height + cw * ch + cy * cw + cx] = cr / n
            }
        }
        return out
    }

    /// Random runs of 2–5 plane-mixing maps on YUV frames are one pass with no converter, and
    /// every byte is the whole chain's route through R'G'B' (written out above in Double) rounded
    /// to nearest, within Float's 10⁻³ LSB of a tie; so is a run that a table stage joins
    /// (saturation 0.8 before sepia composes with it into one matrix). The stage-by-stage run
    /// (fuse false) rounds after every stage, so it differs somewhere.
    @Test(arguments: [("yuv420p", "bt709", "limited"), ("yuv422p", "bt601", "full"), ("yuv444p", "bt2020nc", "limited")])
    func runsThroughRGBAreTheChainsRouteRoundedOnce(_ pixfmt: String, _ matrix: String, _ range: String) throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input(pixfmt, in: dir)
        let source = FusionTests.bytes(input)
        let w: SIMD3<Double> = matrix == "bt709" ? SIMD3(0.2126, 0.7152, 0.0722)
            : matrix == "bt601" ? SIMD3(0.299, 0.587, 0.114) : SIMD3(0.2627, 0.6780, 0.0593)
        var rng = SplitMix(seed: UInt64(pixfmt.utf8.reduce(7) { $0 &* 31 &+ Int($1) } & 0xFFFF))
        var chains: [[Stage]] = (0..<5).map { _ in (0..<(2 + Int(rng.next() % 4))).map { _ in Self.randomMixingStage(&rng) } }
        let saturation: Stage = ("{ \"type\": \"saturation\", \"params\": { \"amount\": 0.8 } }",
                                 { c, w in SIMD3(repeating: (c * w).sum()) * 0.2 + c * 0.8 })
        chains.append([saturation, ("{ \"type\": \"sepia\" }", { c, _ in
            SIMD3((SIMD3(0.3588, 0.7044, 0.1368) * c).sum(), (SIMD3(0.2990, 0.5870, 0.1140) * c).sum(), (SIMD3(0.2392, 0.4696, 0.0912) * c).sum())
        })])
        var differing = 0
        for (k, stages) in chains.enumerated() {
            let fused = dir + "/fused-\(k).raw", staged = dir + "/staged-\(k).raw"
            let nodes = stages.map(\.node)
            let g = try FusionTests.run(Self.graph(nodes, input: input, output: fused, pixfmt: pixfmt, matrix: matrix, range: range))
            _ = try FusionTests.run(Self.graph(nodes, input: input, output: staged, pixfmt: pixfmt, matrix: matrix, range: range, top: "\"fuse\": false,"))
            #expect(g.nodes.count == 4, "chain \(k) \(nodes) was not one pass: \(g.nodes.map(\.id))")
            #expect(g.notes.contains { $0.contains("through R'G'B' per pixel") }, "\(g.notes)")
            let out = FusionTests.bytes(fused)
            try #require(out.count == source.count && out.count % 2 == 0)
            let frame = out.count / 2
            var offNearest = 0, worst = 0.0
            for f in 0..<2 {
                let exact = Self.route(source[(f * frame)..<((f + 1) * frame)], pixfmt, stages, w: w, full: range == "full")
                for i in 0..<frame {
                    let byte = Double(out[f * frame + i])
                    worst = max(worst, abs(byte - exact[i]))
                    if byte != (exact[i] + 0.5).rounded(.down) { offNearest += 1 }
                }
            }
            #expect(worst <= 0.5 + 1e-3, "chain \(k) \(nodes): worst \(worst)")
            #expect(offNearest * 500 <= out.count, "chain \(k): \(offNearest) bytes not the nearest")
            if out != FusionTests.bytes(staged) { differing += 1 }
        }
        #expect(differing > 0)
    }

    /// A run that mixes tables with a plane-mixing map stays apart where one pass through R'G'B'
    /// would cost more (invert, then sepia, then contrast and saturation as one table), and
    /// `validate` says so with the two costs.
    @Test func aRunStaysApartWhereOnePassThroughRGBCostsMore() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv420p", in: dir)
        let nodes = ["{ \"type\": \"invert\" }", "{ \"type\": \"sepia\" }", "{ \"type\": \"contrast\", \"params\": { \"amount\": 0.8 } }",
                     "{ \"type\": \"saturation\", \"params\": { \"amount\": 0.8 } }"]
        let g = try FusionTests.run(Self.graph(nodes, input: input, output: dir + "/o.raw", pixfmt: "yuv420p", matrix: "bt709", range: "limited"))
        #expect(g.nodes.map(\.id) == ["src", "tag", "f0", "f1", "f2+f3", "out"], "\(g.nodes.map(\.id))")
        #expect(g.notes.contains { $0.contains("not one pass through R'G'B': that would cost about 3.1 against 1.9") }, "\(g.notes)")
    }
}
