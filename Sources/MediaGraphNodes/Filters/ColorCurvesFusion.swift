import MediaGraphCore
import MediaGraphKernels

/// Per-channel stages in a run of colour filters: curves (gamma, levels, curves) and the colour maps that
/// act on each channel alone (invert, brightness, contrast, exposure, rgb — a diagonal matrix
/// that keeps alpha). Every such stage maps bytes to bytes channel by channel, so a stretch of
/// them is one table per channel, composed exactly: the fused pass gives the same bytes as the
/// stages one after another. A colour map's tables are its own kernel's output on a ramp of the
/// 256 values, so they hold its rounding too.
///
/// A stretch becomes a table only when it holds a curve: a run of colour maps alone stays a
/// matrix (`ColorMapFusion`), which costs less per pixel than the table look-ups.
enum ColorCurvesFusion {
    /// The stage's tables, when it acts on each channel alone.
    static func curves(of filter: KernelFilter) -> ChannelCurves? {
        if let c = filter.kernel as? ChannelCurvesKernel { return c.curves }
        guard let map = filter.colorMap, isPerChannel(map) else { return nil }
        return ramp(through: filter.kernel)
    }

    static func isPerChannel(_ map: ColorTransform) -> Bool {
        let rows = map.effectiveRows
        for i in 0..<4 { for j in 0..<4 where i != j && rows[i][j] != 0 { return false } }
        return rows[3][3] == 1 && map.effectiveOffset[3] == 0
    }

    /// The kernel's output for every byte value, per channel (one rgba row of 256 grey pixels).
    static func ramp(through kernel: FrameKernel) -> ChannelCurves? {
        var row = [UInt8](repeating: 255, count: 256 * 4)
        for v in 0..<256 { row[4 * v] = UInt8(v); row[4 * v + 1] = UInt8(v); row[4 * v + 2] = UInt8(v) }
        let ok: Bool = row.withUnsafeMutableBufferPointer { b in
            let planes = FramePlanes(format: .rgba, width: 256, height: 1, data0: b.baseAddress!, stride0: 256 * 4)
            return (try? kernel.run(source: planes, destination: planes, threads: 1)) != nil
        }
        guard ok else { return nil }
        return ChannelCurves(red: (0..<256).map { row[4 * $0] }, green: (0..<256).map { row[4 * $0 + 1] },
                             blue: (0..<256).map { row[4 * $0 + 2] })
    }

    /// The stretches of `run` that become one table each: maximal stretches of per-channel stages
    /// that hold at least one curve (a curve alone is a stretch of one, kept as it is).
    static func tableStretches(_ filters: [KernelFilter]) -> [(range: Range<Int>, curves: [ChannelCurves])] {
        var out: [(range: Range<Int>, curves: [ChannelCurves])] = []
        var k = 0
        while k < filters.count {
            var end = k, tables: [ChannelCurves] = []
            while end < filters.count, let c = curves(of: filters[end]) { tables.append(c); end += 1 }
            if end > k, filters[k..<end].contains(where: { $0.kernel is ChannelCurvesKernel }) {
                out.append((k..<end, tables))
                k = end
            } else {
                k = max(end, k + 1)
            }
        }
        return out
    }

    /// A stretch as one node (one member: kept as it is).
    static func piece(_ run: [FusionMember], _ range: Range<Int>, _ tables: [ChannelCurves]) -> FusionPiece {
        guard range.count > 1 else { return FusionPiece(members: range) }
        let members = Array(run[range])
        let ids = members.map(\.id), types = members.map(\.info.name).joined(separator: "+")
        let composed = tables.dropFirst().reduce(tables[0]) { $0.then($1) }
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': "
            + "one table per channel, the same bytes as stage by stage"
        let node = FusedColorFilter(memberIds: ids, kernel: ChannelCurvesKernel(composed), threads: members[0].params[KernelFilter.threadsParam])
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one table pass.",
                                           formats: ChannelCurvesKernel.formats)
        return FusionPiece(members: range, node: node, info: info, note: note)
    }

    /// A run on YUV frames (every stage tables per plane, `KernelFilter.planeCurves`) as one node:
    /// when every stage has lines, they are composed and rounded once
    /// (`PlaneLines.fixedPointCurves`, run as lines), with the bound measured over all 256 values
    /// of each plane; else the stages' tables composed.
    static func planePiece(_ run: [FusionMember], _ tables: [PlaneCurves], lines: [PlaneLines]?) -> FusionPiece {
        let ids = run.map(\.id), types = run.map(\.info.name).joined(separator: "+")
        let staged = tables.dropFirst().reduce(tables[0]) { $0.then($1) }
        let kernel: FrameKernel, form: String
        if let lines, let first = lines.first, case let composed = lines.dropFirst().reduce(first, { $0.then($1) }),
           let curves = composed.fixedPointCurves {
            let bound = curves.largestDifference(from: staged)
            kernel = PlaneCurvesKernel(curves, lines: composed)
            form = "one line per plane (Y', Cb, Cr), rounded once, "
                + (bound == 0 ? "the same bytes as stage by stage" : "within \(bound) LSB of stage-by-stage output (8-bit roundings skipped)")
        } else {
            kernel = PlaneCurvesKernel(staged)
            form = "one table per plane (Y', Cb, Cr), the same bytes as stage by stage"
        }
        let note = "fused " + ids.map { "'\($0)'" }.joined(separator: ", ") + " (\(types)) into one pass '\(ids.joined(separator: "+"))': "
            + form + ", no conversion to RGB"
        let node = FusedColorFilter(memberIds: ids, kernel: kernel, threads: run[0].params[KernelFilter.threadsParam])
        let info = KernelFilter.filterInfo("fused: \(types)", "Colour filters \(ids.joined(separator: ", ")) run as one pass on Y'CbCr planes.",
                                           formats: PlaneCurvesKernel.formats)
        return FusionPiece(members: 0..<run.count, node: node, info: info, note: note)
    }
}
