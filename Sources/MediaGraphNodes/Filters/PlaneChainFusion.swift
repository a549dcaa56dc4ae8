import MediaGraphCore
import MediaGraphKernels

/// A run of colour filters on YUV frames that holds a map mixing Y' with Cb and Cr (sepia, rgb,
/// colormatrix): one pass through R'G'B' per pixel (`PlaneColorChain`) for the whole run. Each
/// member is its R'G'B' map there (`KernelFilter.planeRouteMap`); the maps compose where no
/// intermediate can leave 0…1 and are clamped between otherwise (`ColorMapFusion.plan`), as on
/// rgba. Against the chain's route through R'G'B' in exact arithmetic the pass is within 10⁻³ LSB
/// before its one rounding. Stage by stage instead rounds to 8-bit Y'CbCr after every stage,
/// averages chroma after each stage that mixes planes (4:2:0, 4:2:2), and clamps a table
/// stage's planes to their nominal range where this clamps R'G'B' (Docs/filters.md, "On YUV frames").
///
/// Going through R'G'B' costs more than a table per plane, so a run is one pass only where that is
/// cheaper than its stretches apart — tables (one pass each) and maps that mix planes (one pass
/// through R'G'B' each) — by relative costs per frame measured on 1080p yuv420p in a graph (AMD
/// Zen 3, two threads, `rawsrc` → filters → `nullsink` net of no filter): to R'G'B' and back with
/// the chroma means 1.0 (0.55 ms), each colour matrix 0.7 (0.40 ms), a table pass 0.1 (0.06 ms).
enum PlaneChainFusion {
    static let throughRGB = 1.0, perMatrix = 0.7, perTablePass = 0.1

    /// The run's stretches of table stages and of plane-mixing stages, when it holds both and
    /// running them apart costs less than one pass through R'G'B'; nil otherwise.
    static func cheaperApart(_ run: [FusionMember]) -> (stretches: [Range<Int>], note: String)? {
        let filters = run.compactMap { $0.instance as? KernelFilter }
        guard filters.count == run.count, filters.first?.planeFormat != nil else { return nil }
        let mixes = filters.map { $0.planeCurves == nil }
        guard mixes.contains(true), mixes.contains(false) else { return nil }
        var stretches: [Range<Int>] = [], start = 0
        for k in 1...run.count where k == run.count || mixes[k] != mixes[start] {
            stretches.append(start..<k)
            start = k
        }
        func throughRGB(_ r: Range<Int>) -> Double {
            Self.throughRGB + perMatrix * Double(ColorMapFusion.plan(filters[r].compactMap(\.planeRouteMap)).count)
        }
        let apart = stretches.map { mixes[$0.lowerBound] ? throughRGB($0) : perTablePass }.reduce(0, +)
        let whole = throughRGB(0..<run.count)
        guard apart < whole else { return nil }
        let ids = run.map { "'\($0.id)'" }.joined(separator: ", ")
        let note = "\(ids) not one pass through R'G'B': that would cost about \(String(format: "%.1f", whole)) against "
            + "\(String(format: "%.1f", apart)) for their tables and plane-mixing maps apart (Docs/filters.md, \"On YUV frames\")"
        return (stretches, note)
    }


    static func piece(_ run: [FusionMember], _ filters: [KernelFilter], _ video: VideoFormat) -> FusionPiece? {
        guard run.count > 1 else { return FusionPiece(members: 0..<run.count) }
        let maps = filters.compactMap(\.planeRouteMap)
        guard maps.count == run.count else { return nil }
        let passes = ColorMapFusion.plan(maps)
        let chain = PlaneColorChain(passes.map(\.map), matrix: video.matrix, fullRange: video.range == .full)
        let ids = run.map(\.id), types = run.map(\.info.name).joined(separator: "+")
        let clamps = passes.count == 1 ? "one colour matrix" : "\(passes.count) colour matrices, clamped to 0…1 between them"
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': "
            + "through R'G'B' per pixel (\(clamps)), Y'CbCr rounded once and chroma averaged once, no conversion to RGB frames"
            + " (stage by stage rounds after every stage and averages chroma after each that mixes planes)"
        let node = FusedColorFilter(memberIds: ids, kernel: PlaneColorChainKernel(chain), threads: run[0].params[KernelFilter.threadsParam])
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass on Y'CbCr planes.",
                                           formats: PlaneColorChainKernel.formats)
        return FusionPiece(members: 0..<run.count, node: node, info: info, note: note)
    }
}
