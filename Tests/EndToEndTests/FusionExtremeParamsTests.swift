import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// Colour filters with params anywhere in their declared ranges, often at the ends (contrast 4,
/// exposure ±10, levels' gamma 0.01, `colormatrix` entries ±64): a graph that fuses them into
/// one pass runs, and its output stays within the bound `validate` states of stage by stage.
struct FusionExtremeParamsTests {
    static func filter(_ rng: inout SplitMix, yuv: Bool) -> String {
        func r(_ lo: Double, _ hi: Double) -> String {
            let u = rng.unit()
            return String(format: "%.4f", u < 0.15 ? lo : u < 0.3 ? hi : lo + (hi - lo) * rng.unit())
        }
        // levels' input-min below its input-max, as the node requires
        func levels(_ prefix: String) -> String {
            let a = rng.unit(), b = rng.unit()
            let low = String(format: "%.4f", min(a, b) * 0.9), high = String(format: "%.4f", max(a, b) * 0.9 + 0.1)
            return "\"\(prefix)input-min\": \(low), \"\(prefix)input-max\": \(high), \"\(prefix)gamma\": \(r(0.01, 10)), "
                + "\"\(prefix)output-min\": \(r(0, 1)), \"\(prefix)output-max\": \(r(0, 1))"
        }
        func matrix() -> String {
            (0..<16).map { i in i == 15 ? "1" : (i % 4 == 3 || i >= 12) ? "0" : r(-64, 64) }.joined(separator: ", ")
        }
        let kinds = yuv ? 6 : 13
        switch rng.next() % UInt64(kinds) {
        case 0: return FusionTests.node(("invert", ""))
        case 1: return FusionTests.node(("brightness", "\"amount\": \(r(-1, 1))"))
        case 2: return FusionTests.node(("contrast", "\"amount\": \(r(0, 4))"))
        case 3: return FusionTests.node(("saturation", "\"amount\": \(r(0, 2))"))
        case 4: return FusionTests.node(("exposure", "\"ev\": \(r(-10, 10))"))
        case 5: return FusionTests.node(("grayscale", ""))
        case 6: return FusionTests.node(("sepia", "\"intensity\": \(r(0, 1))"))
        case 7: return FusionTests.node(("hue", "\"degrees\": \(r(-3600, 3600))"))
        case 8: return FusionTests.node(("rgb", "\"red\": \(r(0, 4)), \"green\": \(r(0, 4)), \"blue\": \(r(0, 4))"))
        case 9: return FusionTests.node(("gamma", "\"gamma\": \(r(0, 3))"))
        case 10: return FusionTests.node(("levels", levels(rng.next() % 2 == 0 ? "" : "green-")))
        case 11: return FusionTests.node(("colormatrix", "\"matrix\": [\(matrix())], \"offset\": [\(r(-64, 64)), \(r(-64, 64)), \(r(-64, 64)), 0], \"intensity\": \(r(0, 1))"))
        default: return FusionTests.node(("colormatrix", "\"matrix\": [\(matrix())], \"offset\": [\(r(-2, 2)), \(r(-2, 2)), \(r(-2, 2)), 0]"))
        }
    }

    @Test(arguments: ["rgba", "bgra", "yuv420p"])
    func filtersAtTheEndsOfTheirRangesStayWithinTheStatedBound(_ pixfmt: String) throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try FusionTests.input(pixfmt, in: dir)
        var rng = SplitMix(seed: pixfmt == "rgba" ? 101 : pixfmt == "bgra" ? 102 : 103)
        var onePass = 0
        for k in 0..<60 {
            let filters = (0..<(2 + Int(rng.next() % 7))).map { _ in Self.filter(&rng, yuv: pixfmt == "yuv420p") }
            let fused = dir + "/fused.raw", staged = dir + "/staged.raw"
            let g = try FusionTests.run(FusionTests.graph(filters, input: input, output: fused, pixfmt: pixfmt))
            // one pass only: a difference carried into a later pass grows with its gains
            guard g.nodes.count == 3 else { continue }
            onePass += 1
            try FusionTests.run(FusionTests.graph(filters, input: input, output: staged, pixfmt: pixfmt, top: "\"fuse\": false,"))
            let a = FusionTests.bytes(fused), b = FusionTests.bytes(staged)
            #expect(!a.isEmpty && a.count == b.count)
            let worst = largestDifference(a, b)
            let stated = FusionTests.statedBound(g.notes)
            #expect(stated != nil && worst <= stated!, "chain \(k) \(filters): \(worst) LSB from stage by stage, stated \(stated ?? -1)\n\(g.notes.joined(separator: "\n"))")
        }
        #expect(onePass >= 30, "only \(onePass) of 60 chains were one pass")
    }
}
