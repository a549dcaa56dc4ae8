import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes
import Testing

/// Colour filters on YUV frames without a conversion to RGB and back (Docs/filters.md, "On YUV
/// frames"): each plane is one table, the result is what converting to R'G'B', applying the
/// filter's formula and converting back gives, and a run of them is one pass within its stated
/// bound of stage by stage.
@Suite struct YUVColorMapTests {
    /// The filters that run on YUV planes, with random params from their ranges.
    static func randomFilter(_ rng: inout SplitMix) -> (type: String, params: String) {
        func r(_ lo: Double, _ hi: Double) -> String { String(format: "%.4f", lo + (hi - lo) * rng.unit()) }
        switch rng.next() % 6 {
        case 0: return ("invert", "")
        case 1: return ("brightness", "\"amount\": \(r(-0.5, 0.5))")
        case 2: return ("contrast", "\"amount\": \(r(0.2, 2.5))")
        case 3: return ("saturation", "\"amount\": \(r(0, 2))")
        case 4: return ("exposure", "\"ev\": \(r(-1.5, 1.5))")
        default: return ("grayscale", "")
        }
    }

    /// A graph file: raw input → setparams (the matrix) → the filters → raw output.
    static func graph(_ filters: [String], input: String, output: String, pixfmt: String, matrix: String, top: String = "") -> String {
        let ids = filters.indices.map { "f\($0)" }
        let nodes = zip(ids, filters).map { "\"\($0)\": \($1)" }.joined(separator: ", ")
        let chain = (["src", "tag"] + ids + ["out"]).map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        { \(top) "nodes": { "src": { "type": "rawsrc", "params": { "path": "\(input)", "width": 385, "height": 289, "format": "\(pixfmt)" } },
                     "tag": { "type": "setparams", "params": { "matrix": "\(matrix)" } },
                     \(nodes), "out": { "type": "rawsink", "params": { "path": "\(output)" } } },
          "chains": [[\(chain)]] }
        """
    }

    /// Random chains are one pass with no converter, within the bound `validate` states of stage
    /// by stage (the stage-by-stage run has no converter either); the bound is what composing the
    /// stages' lines and rounding once can differ by, at most ⌊e⌋ + 1 with e half an LSB per
    /// skipped rounding grown by the gains after it (`FusionTests.statedBound`).
    @Test(arguments: [("yuv420p", "bt709"), ("yuv444p", "bt601"), ("yuv422p", "bt2020nc")])
    func randomChainsAreOnePassWithinTheStatedBoundWithNoConversion(_ pixfmt: String, _ matrix: String) throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input(pixfmt, in: dir)
        var rng = SplitMix(seed: UInt64(pixfmt.utf8.reduce(0) { $0 &* 31 &+ Int($1) } & 0xFFFF))
        var differing = 0
        for k in 0..<8 {
            let chosen = (0..<(2 + Int(rng.next() % 6))).map { _ in Self.randomFilter(&rng) }
            let filters = chosen.map { FusionTests.node($0) }
            let fused = dir + "/fused-\(k).raw", staged = dir + "/staged-\(k).raw"
            let g = try FusionTests.run(Self.graph(filters, input: input, output: fused, pixfmt: pixfmt, matrix: matrix))
            let s = try FusionTests.run(Self.graph(filters, input: input, output: staged, pixfmt: pixfmt, matrix: matrix, top: "\"fuse\": false,"))
            // src, tag, one fused pass, out; and stage by stage no converter either
            #expect(g.nodes.count == 4, "chain \(k) \(filters) was not one pass: \(g.nodes.map(\.id))")
            #expect(!s.nodes.contains { $0.inserted }, "a converter was inserted: \(s.nodes.map(\.id))")
            let bound = try #require(FusionTests.statedBound(g.notes), "\(g.notes)")
            #expect(bound <= Self.priorBound(chosen), "chain \(k) \(filters): stated bound \(bound)")
            let a = FusionTests.bytes(fused), b = FusionTests.bytes(staged)
            try #require(!a.isEmpty && a.count == b.count)
            let worst = largestDifference(a, b)
            #expect(worst <= bound, "chain \(k) \(filters) differs from stage by stage by \(worst), stated \(bound)")
            if a != b { differing += 1 }
        }
        // the bound is not vacuous: some chains skip roundings that mattered
        #expect(differing > 0)
    }

    /// ⌊e + a⌋ + 1: e = ½ · Σⱼ Πᵢ₌ⱼ₊₁…ₖ gᵢ for the skipped roundings, gᵢ the largest gain of
    /// filter i on any plane (contrast c, exposure 2^ev, saturation max(1, s), the others 1), and
    /// a = 0.05 for the 16-bit arithmetic (1.5·2^−5 at the least precise shift these gains need).
    static func priorBound(_ filters: [(type: String, params: String)]) -> Int {
        let gains = filters.map { f -> Double in
            let value = Double(f.params.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
            switch f.type {
            case "contrast": return value
            case "exposure": return pow(2, value)
            case "saturation": return max(1, value)
            default: return 1
            }
        }
        var e = 0.0, product = 1.0
        for g in gains.dropFirst().reversed() {
            product *= g
            e += 0.5 * product
        }
        return Int(floor(e + 0.05)) + 1
    }

    /// Each filter alone on yuv444p against the R'G'B' route in Double: Y'CbCr → R'G'B' with the
    /// frame's matrix, the filter's formula (GPUImage's, luminance with the frame's weights),
    /// back to Y'CbCr. Wherever the colour stays inside the RGB cube before and after, the
    /// bytes are that result rounded (within 1 where it lies on a tie).
    @Test(arguments: ["bt601", "bt709"])
    func eachFilterIsTheRGBRouteForColoursInsideTheCube(_ matrix: String) throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv444p", in: dir)
        let w: SIMD3<Double> = matrix == "bt709" ? SIMD3(0.2126, 0.7152, 0.0722) : SIMD3(0.299, 0.587, 0.114)
        let cases: [(node: String, formula: (SIMD3<Double>) -> SIMD3<Double>)] = [
            ("{ \"type\": \"brightness\", \"params\": { \"amount\": 0.15 } }", { $0 + 0.15 }),
            ("{ \"type\": \"contrast\", \"params\": { \"amount\": 1.3 } }", { ($0 - 0.5) * 1.3 + 0.5 }),
            ("{ \"type\": \"exposure\", \"params\": { \"ev\": -0.6 } }", { $0 * pow(2, -0.6) }),
            ("{ \"type\": \"saturation\", \"params\": { \"amount\": 1.4 } }", { c in SIMD3(repeating: (c * w).sum()) * -0.4 + c * 1.4 }),
            ("{ \"type\": \"grayscale\" }", { c in SIMD3(repeating: (c * w).sum()) }),
        ]
        let pixels = 385 * 289
        let source = FusionTests.bytes(input)
        for (k, c) in cases.enumerated() {
            let output = dir + "/out-\(k).raw"
            let g = try FusionTests.run(Self.graph([c.node], input: input, output: output, pixfmt: "yuv444p", matrix: matrix))
            #expect(!g.nodes.contains { $0.inserted })
            let out = FusionTests.bytes(output)
            try #require(out.count == 3 * pixels * 2)
            var checked = 0, worst = 0.0
            for i in 0..<pixels {
                let yuv = SIMD3(Double(source[i]), Double(source[pixels + i]), Double(source[2 * pixels + i]))
                let rgb = Self.rgb(yuv, w)
                let mapped = c.formula(rgb)
                guard Self.inCube(rgb), Self.inCube(mapped) else { continue }
                let expected = Self.yuv(mapped, w)
                for p in 0..<3 {
                    let d = abs(Double(out[p * pixels + i]) - expected[p])
                    worst = max(worst, d)
                    #expect(d <= 0.5 + 1e-6 || (d <= 1 && abs(expected[p] - expected[p].rounded(.down) - 0.5) < 1e-6),
                            "\(c.node) pixel \(i) plane \(p): \(out[p * pixels + i]) for \(expected[p])")
                }
                checked += 1
            }
            // the noisy input leaves the cube often (4 900–16 600 of 111 265 pixels stay inside)
            #expect(checked > pixels / 30, "\(c.node): only \(checked) pixels inside the cube")
            #expect(worst <= 0.5 + 1e-6, "\(c.node): worst \(worst)")
        }
    }

    /// hue on yuv444p against the R'G'B' route in Double: YIQ's chroma turned about the frame's
    /// own Y' — (U, V) = (0.492111·(B' − Y'), 0.877283·(R' − Y')) turned by +degrees, as GPUImage
    /// turns (I, Q), (U, V) reflected, by −degrees. Y' is left as it is (every pixel); Cb and Cr
    /// are the route's result rounded wherever the colour stays inside the cube, within the
    /// kernel's 0.01 LSB near a half. On BT.601 frames that is GPUImage's own shader (its polar
    /// form and six-digit constants), within 0.05 more.
    @Test(arguments: ["bt601", "bt709"])
    func hueTurnsCbAndCrAboutTheFramesOwnY(_ matrix: String) throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv444p", in: dir)
        let w: SIMD3<Double> = matrix == "bt709" ? SIMD3(0.2126, 0.7152, 0.0722) : SIMD3(0.299, 0.587, 0.114)
        let degrees = 40.0, h = degrees * Double.pi / 180
        func turned(_ c: SIMD3<Double>) -> SIMD3<Double> {
            let y = (c * w).sum(), u = 0.492111 * (c[2] - y), v = 0.877283 * (c[0] - y)
            let u2 = u * cos(h) - v * sin(h), v2 = u * sin(h) + v * cos(h)
            let r = y + v2 / 0.877283, b = y + u2 / 0.492111
            return SIMD3(r, (y - w[0] * r - w[2] * b) / w[1], b)
        }
        // GPUImage's hue shader (GPUImageHueFilter): YIQ with its constants, polar form, hue − h.
        func gpuImage(_ c: SIMD3<Double>) -> SIMD3<Double> {
            let y = (c * SIMD3(0.299, 0.587, 0.114)).sum()
            let i = (c * SIMD3(0.595716, -0.274453, -0.321263)).sum(), q = (c * SIMD3(0.211456, -0.522591, 0.31135)).sum()
            let hue = atan2(q, i) - h, chroma = (i * i + q * q).squareRoot()
            let i2 = chroma * cos(hue), q2 = chroma * sin(hue)
            return SIMD3(y + 0.9563 * i2 + 0.6210 * q2, y - 0.2721 * i2 - 0.6474 * q2, y - 1.1070 * i2 + 1.7046 * q2)
        }
        let output = dir + "/hue.raw"
        let g = try FusionTests.run(Self.graph(["{ \"type\": \"hue\", \"params\": { \"degrees\": \(degrees) } }"],
                                               input: input, output: output, pixfmt: "yuv444p", matrix: matrix))
        #expect(!g.nodes.contains { $0.inserted }, "\(g.nodes.map(\.id))")
        let pixels = 385 * 289
        let source = FusionTests.bytes(input), out = FusionTests.bytes(output)
        try #require(out.count == 3 * pixels * 2)
        #expect(out[0..<pixels] == source[0..<pixels], "Y' changed")
        var checked = 0, worst = 0.0, worstGPUImage = 0.0
        for i in 0..<pixels {
            let yuv = SIMD3(Double(source[i]), Double(source[pixels + i]), Double(source[2 * pixels + i]))
            let rgb = Self.rgb(yuv, w), mapped = turned(rgb)
            guard Self.inCube(rgb), Self.inCube(mapped) else { continue }
            let expected = Self.yuv(mapped, w), shader = Self.yuv(gpuImage(rgb), w)
            for p in 1..<3 {
                let byte = Double(out[p * pixels + i])
                worst = max(worst, abs(byte - expected[p]))
                worstGPUImage = max(worstGPUImage, abs(byte - shader[p]))
            }
            checked += 1
        }
        #expect(checked > pixels / 30, "only \(checked) pixels inside the cube")
        #expect(worst <= 0.51, "worst \(worst)")
        if matrix == "bt601" { #expect(worstGPUImage <= 0.56, "worst against GPUImage's shader \(worstGPUImage)") }
    }

    /// On yuv420p hue needs no converter either: Y' stays, and each chroma sample pair turns as it
    /// is. Between colour filters on YUV it is a pass of its own (it turns Cb and Cr together,
    /// so it is not one line per plane), and `validate` says why.
    @Test func hueOnYUV420pIsAPassOfItsOwnWithNoConversion() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv420p", in: dir)
        let output = dir + "/o.raw"
        let filters = [FusionTests.node(("brightness", "\"amount\": 0.05")), FusionTests.node(("hue", "\"degrees\": -120")),
                       FusionTests.node(("contrast", "\"amount\": 1.2"))]
        let g = try FusionTests.run(Self.graph(filters, input: input, output: output, pixfmt: "yuv420p", matrix: "bt709"))
        #expect(!g.nodes.contains { $0.inserted }, "\(g.nodes.map(\.id))")
        #expect(g.nodes.map(\.id).contains("f1"), "hue was fused: \(g.nodes.map(\.id))")
        #expect(g.notes.contains { $0.contains("'f1'") && $0.contains("turns Cb and Cr together") }, "\(g.notes)")
        // hue alone: Y' as it was, chroma turned
        let alone = dir + "/alone.raw"
        _ = try FusionTests.run(Self.graph([FusionTests.node(("hue", "\"degrees\": -120"))], input: input, output: alone,
                                           pixfmt: "yuv420p", matrix: "bt709"))
        let source = FusionTests.bytes(input), out = FusionTests.bytes(alone)
        let luma = 385 * 289, chroma = 193 * 145
        try #require(out.count == source.count && out.count == 2 * (luma + 2 * chroma))
        #expect(largestDifference(Array(out[0..<luma]), Array(source[0..<luma])) == 0)
        let w = SIMD3(0.2126, 0.7152, 0.0722), h = -120 * Double.pi / 180
        let du = 0.492111 * 2 * (1 - w.z), dv = 0.877283 * 2 * (1 - w.x)
        var worst = 0.0
        for i in 0..<chroma {
            let u = du * (Double(source[luma + i]) - 128), v = dv * (Double(source[luma + chroma + i]) - 128)
            let cb = min(max(128 + (u * cos(h) - v * sin(h)) / du, 16), 240), cr = min(max(128 + (u * sin(h) + v * cos(h)) / dv, 16), 240)
            worst = max(worst, abs(Double(out[luma + i]) - cb), abs(Double(out[luma + chroma + i]) - cr))
        }
        #expect(worst <= 0.51, "worst \(worst)")
    }

    /// Limited-range Y'CbCr bytes → R'G'B' in 0…1 (no clamping).
    static func rgb(_ v: SIMD3<Double>, _ w: SIMD3<Double>) -> SIMD3<Double> {
        let y = (v[0] - 16) / 219, pb = (v[1] - 128) / 224, pr = (v[2] - 128) / 224
        let r = y + 2 * (1 - w[0]) * pr, b = y + 2 * (1 - w[2]) * pb
        return SIMD3(r, (y - w[0] * r - w[2] * b) / w[1], b)
    }

    /// R'G'B' in 0…1 → limited-range Y'CbCr, unrounded.
    static func yuv(_ c: SIMD3<Double>, _ w: SIMD3<Double>) -> SIMD3<Double> {
        let y = (c * w).sum()
        return SIMD3(16 + 219 * y, 128 + 224 * (c[2] - y) / (2 * (1 - w[2])), 128 + 224 * (c[0] - y) / (2 * (1 - w[0])))
    }

    static func inCube(_ c: SIMD3<Double>) -> Bool { c.min() >= 0 && c.max() <= 1 }

    /// A live change to a member of a fused YUV run composes its lines again: brightness changed
    /// before the first frame gives the bytes of the graph written with the new value.
    @Test func aLiveChangeComposesTheLinesAgain() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv420p", in: dir)
        func filters(_ amount: Double) -> [String] {
            [FusionTests.node(("brightness", "\"amount\": \(amount)")), FusionTests.node(("contrast", "\"amount\": 1.3")),
             FusionTests.node(("saturation", "\"amount\": 0.7"))]
        }
        let changed = dir + "/changed.raw", written = dir + "/written.raw", unchanged = dir + "/unchanged.raw"
        let json = Self.graph(filters(0.1), input: input, output: changed, pixfmt: "yuv420p", matrix: "bt709")
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        #expect(g.nodes.count == 4, "\(g.nodes.map(\.id))")
        let runner = GraphRunner(graph: g)
        try runner.setParam(node: "f0", "amount", to: .number(-0.2, nil))
        try runner.run()
        _ = try FusionTests.run(Self.graph(filters(-0.2), input: input, output: written, pixfmt: "yuv420p", matrix: "bt709"))
        _ = try FusionTests.run(Self.graph(filters(0.1), input: input, output: unchanged, pixfmt: "yuv420p", matrix: "bt709"))
        let a = FusionTests.bytes(changed), b = FusionTests.bytes(written)
        #expect(!a.isEmpty && a.count == b.count && largestDifference(a, b) == 0)
        let asBefore = a == FusionTests.bytes(unchanged)
        #expect(!asBefore, "the change did not reach the fused pass")
    }

    /// A filter that mixes Y' with the chroma (sepia) runs on the YUV frames too (the route
    /// through R'G'B' per pixel, `YUVMixingMapTests`): no converter; after brightness, which
    /// can leave 0…1, one pass through R'G'B' would cost more than the table and sepia apart.
    @Test func aFilterThatMixesPlanesRunsOnYUVWithNoConverter() throws {
        let dir = CLI.tempDir()
        let input = try FusionTests.input("yuv420p", in: dir)
        let json = Self.graph([FusionTests.node(("brightness", "\"amount\": 0.1")), FusionTests.node(("sepia", "\"intensity\": 1"))],
                              input: input, output: dir + "/o.raw", pixfmt: "yuv420p", matrix: "bt709")
        let g = try FusionTests.run(json)
        #expect(!g.nodes.contains { $0.inserted }, "\(g.nodes.map(\.id))")
        #expect(g.nodes.first { $0.id == "f1" }?.inputFormats.first?.video?.pixelFormat == .yuv420p, "sepia runs on the YUV input")
        #expect(g.nodes.map(\.id).contains("f1"), "\(g.nodes.map(\.id))")
        #expect(g.notes.contains { $0.contains("'f0', 'f1' not one pass through R'G'B'") }, "\(g.notes)")
    }
}
