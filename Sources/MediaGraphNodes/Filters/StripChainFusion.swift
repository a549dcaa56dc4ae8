import MediaGraphCore
import MediaGraphKernels

/// A run of colour filters whose forms do not compose into one (tables, matrices, a 3D LUT) as
/// one pass all the same: each piece keeps its own kernel (`StripChainKernel` runs them strip by
/// strip), so the frame is read and written once. The bytes are those of the pieces one after
/// another; only the matrix pieces skip roundings, and what they skip is carried through the
/// pieces after them to the bound `validate` shows.
enum StripChainFusion {
    static func piece(_ run: [FusionMember], _ filters: [KernelFilter], _ pieces: [FusionPiece]) -> FusionPiece {
        var kernels: [FrameKernel] = []
        var parts: [String] = []
        var difference = 0
        for piece in pieces {
            let members = Array(filters[piece.members])
            let ids = run[piece.members].map { "'\($0.id)'" }.joined(separator: ", ")
            let fused = piece.node as? FusedColorFilter
            kernels += fused.map { [$0.kernel] } ?? members.map(\.kernel)
            let kernel = fused?.kernel ?? members[0].kernel
            switch kernel {
            case let tables as ChannelCurvesKernel:
                parts.append("\(ids) as one table per channel")
                difference = spread(difference, through: tables.curves)
            case let lut as LUT3DKernel:
                parts.append("\(ids) as a 3D LUT")
                difference = difference == 0 ? 0 : Int((lut.slope * Double(difference) + 1e-3).rounded(.down)) + 1
            default:
                let maps = members.compactMap(\.colorMap)
                let matrices = (kernel as? ColorChainKernel)?.transforms.count ?? 1
                parts.append("\(ids) as " + (matrices == 1 ? "one colour matrix" : "\(matrices) colour matrices clamped between them"))
                difference = matrixBound(maps, incoming: difference, arithmetic: (kernel as? ColorChainKernel)?.arithmeticError ?? 0)
            }
        }
        let ids = run.map(\.id), types = run.map(\.info.name).joined(separator: "+")
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': "
            + parts.joined(separator: ", then ") + ", strip by strip (each frame read and written once); "
            + (difference == 0 ? "the same bytes as stage by stage" : "within \(difference) LSB of stage-by-stage output (8-bit roundings skipped)")
        let node = FusedColorFilter(memberIds: ids, kernel: StripChainKernel(kernels), threads: run[0].params[KernelFilter.threadsParam])
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass.",
                                           formats: ColorMatrixKernel.formats)
        return FusionPiece(members: 0..<run.count, node: node, info: info, note: note)
    }

    /// The bound after a stretch of colour maps composed into matrices (one rounding at the end)
    /// whose input already differs by `incoming`: ⌊G·d + e⌋ + 1, G the product of the gains and
    /// e the roundings it skips (`ColorMapFusion.preRoundingBound`) plus the kernel's own
    /// arithmetic error; 0 while nothing differs.
    static func matrixBound(_ maps: [ColorTransform], incoming: Int, arithmetic: Double = 0) -> Int {
        let total = maps.reduce(1.0) { $0 * $1.gain } * Double(incoming) + ColorMapFusion.preRoundingBound(maps) + arithmetic
        return total == 0 ? 0 : Int((total + 1e-3).rounded(.down)) + 1
    }

    /// The largest output difference of per-channel tables whose inputs differ by at most `d`:
    /// the largest difference between two entries of a table at most d apart.
    static func spread(_ d: Int, through curves: ChannelCurves) -> Int {
        guard d > 0 else { return 0 }
        var largest = 0
        for table in [curves.red, curves.green, curves.blue] {
            for x in 0..<255 {
                for y in (x + 1)...min(x + d, 255) {
                    largest = max(largest, abs(Int(table[y]) - Int(table[x])))
                }
            }
        }
        return largest
    }
}
