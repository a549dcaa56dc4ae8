import Foundation
import MediaGraphCore
import MediaGraphKernels

/// How a run of colour filters (affine maps of a pixel's own colour) becomes one pass.
///
/// Stage by stage, each filter clamps its result to 0…1 and rounds it to 8 bits. The fused pass
/// composes the maps (`ColorTransform.then`) wherever no intermediate can leave 0…1 — an affine
/// map sends the RGBA cube to the hull of its 16 corners' images, so the corners decide exactly —
/// and clamps (in Float, without rounding) after a stage whose image leaves the cube. What is
/// left is the skipped rounding: at most 0.5 LSB after each stage but the last, each grown by the
/// gains (`ColorTransform.gain`) of the stages after it, so the pre-rounding difference is at
/// most e = 0.5 · Σⱼ Πᵢ₌ⱼ₊₁…ₖ gainᵢ and the bytes differ by at most ⌊e⌋ + 1 (`bound`; `validate`
/// shows it). Maps of gain at most 1 (invert, grayscale, contrast and saturation ≤ 1, …) keep it
/// at ⌊(k − 1)/2⌋ + 1 for k stages; gains above 1 make it grow, which `"fuse": false` avoids.
public enum ColorMapFusion {
    /// The family name (`StageFusion.family`).
    public static let family = "colour map"
    /// The registration (`NodeRegistry.addFusion`).
    public static let fusion = StageFusion.pointwise(family: family) { run in fuse(run) }

    /// The fused pass as planned: its maps (clamped between), where it clamps, the bound.
    public struct Pass: Sendable {
        public var members: Range<Int>
        public var maps: [ColorTransform]
        /// Members after which the pass clamps, with the corner that leaves the cube and its image.
        public var clampsAfter: [(member: Int, corner: SIMD4<Double>, image: SIMD4<Double>)]
        /// The largest byte difference from stage-by-stage output (⌊e⌋ + 1).
        public var bound: Int
    }

    /// Plans the pass of a chain of maps (first applied first): stretches whose intermediates
    /// stay in 0…1 composed into one map, a clamp after each stretch that can leave it.
    public static func plan(_ maps: [ColorTransform]) -> Pass {
        var pass = Pass(members: 0..<maps.count, maps: [], clampsAfter: [], bound: bound(maps))
        var current = maps[0]
        for next in 1..<max(1, maps.count) {
            if let leaving = current.cornerLeavingRange() {
                pass.maps.append(current)
                pass.clampsAfter.append((next - 1, leaving.corner, leaving.image))
                current = maps[next]
            } else {
                current = current.then(maps[next])
            }
        }
        pass.maps.append(current)
        return pass
    }

    /// The largest byte difference between the fused chain and stage by stage: ⌊e⌋ + 1 with e
    /// from `preRoundingBound` (a margin of 0.001 LSB covers the Float arithmetic).
    public static func bound(_ maps: [ColorTransform]) -> Int { Int(floor(preRoundingBound(maps) + 1e-3)) + 1 }

    /// e = 0.5 · Σⱼ Πᵢ₌ⱼ₊₁…ₖ gainᵢ: the largest difference before the final rounding between the
    /// fused chain and stage by stage, in LSB (clamps do not grow differences).
    public static func preRoundingBound(_ maps: [ColorTransform]) -> Double {
        var e = 0.0, product = 1.0
        for j in stride(from: maps.count - 1, to: 0, by: -1) {
            product *= maps[j].gain
            e += 0.5 * product
        }
        return e
    }

    static func fuse(_ run: [FusionMember]) -> [FusionPiece] {
        let maps = run.compactMap { ($0.instance as? KernelFilter)?.colorMap }
        guard maps.count == run.count else { return [] }
        let pass = plan(maps)
        let ids = run.map(\.id), types = run.map(\.info.name).joined(separator: "+")
        var note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))'"
        note += pass.maps.count == 1 ? ": one colour matrix" : ": \(pass.maps.count) colour matrices"
        for c in pass.clampsAfter {
            note += ", clamped to 0…1 after '\(run[c.member].id)' (it can leave 0…1: \(show(c.corner)) → \(show(c.image)))"
        }
        note += "; within \(pass.bound) LSB of stage-by-stage output (8-bit roundings skipped)"
        let threads = run[0].params[KernelFilter.threadsParam]
        let node = FusedColorFilter(memberIds: ids, transforms: pass.maps, threads: threads)
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass.",
                                           formats: ColorMatrixKernel.formats)
        return [FusionPiece(members: 0..<run.count, node: node, info: info, note: note)]
    }

    /// An RGB(A) value for a message: (1, 1, 1) → (1.351, 1.203, 0.937).
    static func show(_ v: SIMD4<Double>) -> String {
        "(" + (0..<3).map { String(format: "%.3g", v[$0]) }.joined(separator: ", ") + ")"
    }
}
