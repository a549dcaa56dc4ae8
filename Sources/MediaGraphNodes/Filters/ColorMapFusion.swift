import Foundation
import MediaGraphCore
import MediaGraphKernels

/// How a run of colour filters (affine maps of a pixel's own colour) becomes one pass.
///
/// Stage by stage, each filter clamps its result to 0…1 and rounds it to 8 bits. A fused pass
/// composes the maps (`ColorTransform.then`) as long as no intermediate can leave 0…1 — an affine
/// map sends the RGBA cube to the hull of its 16 corners' images, so the corners decide exactly —
/// and ends after a stage whose image leaves the cube (one matrix cannot clamp in between). What
/// is left is the skipped rounding: at most 0.5 LSB after each stage but the last, each grown by
/// the gains (`ColorTransform.gain`) of the stages after it, so before the final rounding a pass
/// differs by at most e = 0.5 · Σⱼ Πᵢ₌ⱼ₊₁…ₖ gainᵢ, plus what its input already differed by times
/// its gains, and its bytes by at most ⌊e⌋ + 1 (`plan`, `bound`; `validate` shows it).
///
/// Where several maps run in one pass at about the price of one (`ColorChainKernel.isOnePassFast`:
/// AVX2), the passes of a run become one node all the same: its kernel applies the passes' maps
/// in turn, clamped between them as stage by stage, rounded once. Clamps do not grow a difference,
/// so the bound is e over the whole run (`onePassBound`), plus what the kernel's own arithmetic
/// adds (`ColorChainKernel.arithmeticError`: its fixed-point forms, or Float's rounding).
public enum ColorMapFusion {
    /// The family name (`StageFusion.family`).
    public static let family = "colour map"
    /// The registration (`NodeRegistry.addFusion`).
    public static let fusion = StageFusion.pointwise(family: family) { run in fuse(run) }

    /// One pass as planned: the members it covers, their composed map, the bound on its output.
    public struct Pass: Sendable {
        public var members: Range<Int>
        public var map: ColorTransform
        /// Why the pass ends before the next member: the corner of the RGBA cube that its map
        /// sends out of 0…1, and its image (nil at the end of the chain).
        public var leaves: (corner: SIMD4<Double>, image: SIMD4<Double>)?
        /// The largest byte difference of its output from stage-by-stage output.
        public var bound: Int
    }

    /// Plans the passes of a chain of maps (first applied first): each pass composes members as
    /// long as no intermediate can leave 0…1, and ends after one that can (a composed matrix
    /// cannot clamp in between). Each pass's bound takes the difference its input already has:
    /// d = ⌊G·d_in + e⌋ + 1 with G the product of its gains and e its own `preRoundingBound`
    /// (d = 0 while nothing differs).
    public static func plan(_ maps: [ColorTransform]) -> [Pass] {
        var passes: [Pass] = []
        var k = 0
        var incoming = 0
        while k < maps.count {
            var current = maps[k]
            var end = k + 1
            var leaves = current.cornerLeavingRange()
            while end < maps.count, leaves == nil {
                current = current.then(maps[end])
                end += 1
                leaves = current.cornerLeavingRange()
            }
            let members = Array(maps[k..<end])
            let growth = members.reduce(1.0) { $0 * $1.gain } * Double(incoming)
            let e = growth + preRoundingBound(members)
            let bound = e == 0 ? 0 : Int(floor(e + 1e-3)) + 1
            passes.append(Pass(members: k..<end, map: current, leaves: end < maps.count ? leaves.map { ($0.corner, $0.image) } : nil, bound: bound))
            incoming = bound
            k = end
        }
        return passes
    }

    /// The largest byte difference between the chain as fused and stage by stage.
    public static func bound(_ maps: [ColorTransform]) -> Int {
        guard ColorChainKernel.isOnePassFast else { return plan(maps).last?.bound ?? 0 }
        return onePassBound(maps, arithmetic: ColorChainKernel.arithmeticError(plan(maps).map(\.map)))
    }

    /// ⌊e + a⌋ + 1 with e over every map of the run (0 when nothing is skipped) and a the
    /// kernel's arithmetic error: one pass that clamps between maps and rounds once.
    public static func onePassBound(_ maps: [ColorTransform], arithmetic: Double = 0) -> Int {
        let e = preRoundingBound(maps) + arithmetic
        return e == 0 ? 0 : Int(floor(e + 1e-3)) + 1
    }

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

    /// A run on YUV frames is one table per plane, or when a member mixes Y' with chroma one pass
    /// through R'G'B' (`PlaneChainFusion`). On rgba/bgra, stretches of per-channel stages
    /// holding a curve become tables (`ColorCurvesFusion`), colour maps between them matrices,
    /// and a stage that is neither (a 3D LUT) stays its own kernel; when that leaves several
    /// pieces, they run as one pass strip by strip (`StripChainFusion`).
    /// The fused node keeps its members so that their live params can change: it composes them
    /// again the same way (the pieces may then fall differently; they stay one node).
    static func fuse(_ run: [FusionMember]) -> [FusionPiece] {
        if let apart = PlaneChainFusion.cheaperApart(run) {
            var pieces = apart.stretches.flatMap { r -> [FusionPiece] in
                r.count == 1 ? [FusionPiece(members: r)] : shifted(fuse(Array(run[r])), by: r.lowerBound)
            }
            pieces[0].note = [apart.note, pieces[0].note].compactMap { $0 }.joined(separator: "\n")
            return pieces
        }
        guard let piece = composed(run) else { return [] }
        (piece.node as? FusedColorFilter)?.takeLiveChanges(of: run) { members in
            guard let again = composed(members) else { throw NodeFailure("the fused filters no longer compose") }
            if let node = again.node as? FusedColorFilter { return node.kernel }
            return (members[0].instance as! KernelFilter).kernel
        }
        return [piece]
    }

    /// The run as one piece: a fused node, or (a run of one) the stage kept as it is.
    static func composed(_ run: [FusionMember]) -> FusionPiece? {
        let filters = run.compactMap { $0.instance as? KernelFilter }
        guard filters.count == run.count, !run.isEmpty else { return nil }
        let tables = filters.compactMap(\.planeCurves)
        if tables.count == run.count {
            let lines = filters.compactMap(\.planeLines)
            return ColorCurvesFusion.planePiece(run, tables, lines: lines.count == run.count ? lines : nil)
        }
        if let video = filters[0].planeFormat { return PlaneChainFusion.piece(run, filters, video) }
        let pieces = rgbaPieces(run, filters)
        return pieces.count > 1 ? StripChainFusion.piece(run, filters, pieces) : pieces.first
    }

    /// Tables where a stretch holds a curve, matrices between them, other kernels on their own.
    static func rgbaPieces(_ run: [FusionMember], _ filters: [KernelFilter]) -> [FusionPiece] {
        var pieces: [FusionPiece] = []
        var k = 0
        for stretch in ColorCurvesFusion.tableStretches(filters) {
            if stretch.range.lowerBound > k { pieces += mapPieces(run, filters, k..<stretch.range.lowerBound) }
            pieces.append(ColorCurvesFusion.piece(run, stretch.range, stretch.curves))
            k = stretch.range.upperBound
        }
        if k < run.count { pieces += mapPieces(run, filters, k..<run.count) }
        return pieces
    }

    /// Colour maps as matrices; a stage that is not one (a 3D LUT) as a piece of its own.
    static func mapPieces(_ run: [FusionMember], _ filters: [KernelFilter], _ range: Range<Int>) -> [FusionPiece] {
        var pieces: [FusionPiece] = []
        var k = range.lowerBound
        for j in range where filters[j].colorMap == nil {
            if j > k { pieces += shifted(fuseMaps(Array(run[k..<j])), by: k) }
            pieces.append(FusionPiece(members: j..<(j + 1)))
            k = j + 1
        }
        if k < range.upperBound { pieces += shifted(fuseMaps(Array(run[k..<range.upperBound])), by: k) }
        return pieces
    }

    static func shifted(_ pieces: [FusionPiece], by k: Int) -> [FusionPiece] {
        pieces.map { var p = $0; p.members = (p.members.lowerBound + k)..<(p.members.upperBound + k); return p }
    }

    /// A stretch of colour maps as matrices.
    static func fuseMaps(_ run: [FusionMember]) -> [FusionPiece] {
        let maps = run.compactMap { ($0.instance as? KernelFilter)?.colorMap }
        guard maps.count == run.count else { return [FusionPiece(members: 0..<run.count)] }
        if run.count == 1 { return [FusionPiece(members: 0..<1)] }
        let passes = plan(maps)
        if ColorChainKernel.isOnePassFast && passes.count > 1 { return [onePass(run, maps, passes)] }
        return passes.map { pass in
            let members = Array(run[pass.members])
            var note: String?
            if let leaves = pass.leaves, let last = pass.members.last {
                note = "'\(run[last + 1].id)' not fused with '\(run[last].id)': '\(run[last].id)' can leave 0…1 (\(show(leaves.corner)) → \(show(leaves.image))) and one matrix cannot clamp in between"
            }
            guard members.count > 1 else { return FusionPiece(members: pass.members, note: note) }
            let ids = members.map(\.id), types = members.map(\.info.name).joined(separator: "+")
            let fused = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': one colour matrix"
                + "; within \(pass.bound) LSB of stage-by-stage output (8-bit roundings skipped)"
            let threads = members[0].params[KernelFilter.threadsParam]
            let node = FusedColorFilter(memberIds: ids, transforms: [pass.map], threads: threads)
            let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass.",
                                               formats: ColorMatrixKernel.formats)
            return FusionPiece(members: pass.members, node: node, info: info, note: note.map { fused + "\n" + $0 } ?? fused)
        }
    }

    /// The whole run as one node: the passes' maps in turn, clamped between them.
    static func onePass(_ run: [FusionMember], _ maps: [ColorTransform], _ passes: [Pass]) -> FusionPiece {
        let ids = run.map(\.id), types = run.map(\.info.name).joined(separator: "+")
        let clamps = passes.dropLast().compactMap { pass -> String? in
            guard let leaves = pass.leaves, let last = pass.members.last else { return nil }
            return "after '\(run[last].id)' (it can leave 0…1: \(show(leaves.corner)) → \(show(leaves.image)))"
        }
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': "
            + "\(passes.count) colour matrices, clamped to 0…1 " + clamps.joined(separator: " and ")
            + "; within \(onePassBound(maps, arithmetic: ColorChainKernel.arithmeticError(passes.map(\.map)))) LSB of stage-by-stage output (8-bit roundings skipped)"
        let threads = run[0].params[KernelFilter.threadsParam]
        let node = FusedColorFilter(memberIds: ids, transforms: passes.map(\.map), threads: threads)
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass.",
                                           formats: ColorMatrixKernel.formats)
        return FusionPiece(members: 0..<run.count, node: node, info: info, note: note)
    }

    /// An RGB(A) value for a message: (1, 1, 1) → (1.351, 1.203, 0.937).
    static func show(_ v: SIMD4<Double>) -> String {
        "(" + (0..<3).map { String(format: "%.3g", v[$0]) }.joined(separator: ", ") + ")"
    }
}
