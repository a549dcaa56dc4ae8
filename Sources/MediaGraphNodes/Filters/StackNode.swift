import MediaGraphCore

/// How `stack` places its inputs.
public enum StackLayout: String, CaseIterable, Sendable {
    case horizontal, vertical, grid
}

/// `stack`: inputs side by side, top to bottom, or in a grid (before/after comparisons), as
/// ffmpeg's hstack, vstack and xstack; inputs aligned by time by the engine's synchroniser.
public final class StackNode: RegisteredNode, SynchronizedVideoNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "stack", doc: "Places its inputs side by side (horizontal), top to bottom (vertical) or in a grid, as ffmpeg's hstack/vstack/xstack; inputs aligned by time (Docs/multi-input.md). Inputs of other sizes or pixel formats get visible scale/convert nodes.",
            category: .filter,
            inputs: [PortSpec("in", .anyVideo, doc: "raw video; in, in1, in2, … in that order; scaled and converted to meet the first (horizontal: its height, vertical: its width, both keeping their aspect; grid: its size)", repeatable: true)],
            outputs: [PortSpec("out", .anyVideo, doc: "raw video of the first input's pixel format")],
            params: ParamSpec.list([layoutParam, columnsParam] + SyncParams.all))
        // what the inputs must share depends on the layout: the graph inserts what makes them
        info.matchedInputsFor = { params in
            switch params[StackNode.layoutParam] {
            // each input upright before the sizes are matched (ffmpeg autorotates hstack's inputs)
            case .horizontal: return [.videoHeight, .videoUpright]
            case .vertical: return [.videoWidth, .videoUpright]
            case .grid: return [.videoGeometry, .videoUpright]
            }
        }
        return info
    }()
    static let layoutParam = Param<StackLayout>("layout", default: .horizontal, doc: "horizontal (one row, equal heights), vertical (one column, equal widths), grid (rows of `columns` cells of the first input's size)")
    static let columnsParam = Param<Int>("columns", 1...64, default: 2, doc: "cells per row of a grid")

    let layout: StackLayout
    let columns: Int
    public let syncPolicy: SyncPolicy
    let id: String
    /// Where each input (input order) goes in the output, in pixels.
    var origins: [(x: Int, y: Int)] = []
    var sizes: [(width: Int, height: Int)] = []
    var outFormat: VideoFormat?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        layout = p[Self.layoutParam]
        columns = p[Self.columnsParam]
        syncPolicy = SyncPolicy(params: p)
        id = setup.id
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        let ordered = SyncInputOrder.ordered(inputs, in: Self.typeInfo)
        var formats: [VideoFormat] = []
        for i in ordered {
            guard let v = i.format.video else { throw NodeFailure("input '\(i.port)': expected raw video, found \(i.format)") }
            formats.append(v)
        }
        let first = formats[0], firstPort = ordered[0].port
        for (k, f) in formats.enumerated() where f.pixelFormat != first.pixelFormat {
            throw NodeFailure("input '\(ordered[k].port)' is \(f.pixelFormat) but '\(firstPort)' is \(first.pixelFormat); stack takes one pixel format (put a convert node before it)")
        }
        var x = 0, y = 0, width = 0, height = 0
        origins = []
        sizes = formats.map { ($0.width, $0.height) }
        switch layout {
        case .horizontal:
            for (k, f) in formats.enumerated() {
                guard f.height == first.height else {
                    throw NodeFailure("input '\(ordered[k].port)' is \(f.width)x\(f.height) but '\(firstPort)' is \(first.width)x\(first.height); a horizontal stack needs equal heights (scale one input first)")
                }
                origins.append((x, 0))
                x += f.width
            }
            width = x; height = first.height
        case .vertical:
            for (k, f) in formats.enumerated() {
                guard f.width == first.width else {
                    throw NodeFailure("input '\(ordered[k].port)' is \(f.width)x\(f.height) but '\(firstPort)' is \(first.width)x\(first.height); a vertical stack needs equal widths (scale one input first)")
                }
                origins.append((0, y))
                y += f.height
            }
            width = first.width; height = y
        case .grid:
            for (k, f) in formats.enumerated() {
                guard f.width == first.width && f.height == first.height else {
                    throw NodeFailure("input '\(ordered[k].port)' is \(f.width)x\(f.height) but '\(firstPort)' is \(first.width)x\(first.height); grid cells are all one size (scale one input first)")
                }
                origins.append((k % columns * first.width, k / columns * first.height))
            }
            width = min(columns, formats.count) * first.width
            height = (formats.count + columns - 1) / columns * first.height
        }
        let shift = first.pixelFormat.chromaShift
        for (k, o) in origins.enumerated() where (o.x & ((1 << shift.x) - 1)) != 0 || (o.y & ((1 << shift.y) - 1)) != 0 {
            throw NodeFailure("input '\(ordered[k].port)' would start at \(o.x),\(o.y), which is not on the chroma grid of \(first.pixelFormat) (the inputs before it need even sizes)")
        }
        guard width <= 16384, height <= 16384 else {
            throw NodeFailure("the stacked frame would be \(width)x\(height); each side must be at most 16384")
        }
        var out = first
        out.width = width
        out.height = height
        // the synchroniser's clock (and its check of the offsets)
        out.timeBase = try VideoSynchronizer(formats: formats, names: ordered.map(\.port), policy: syncPolicy).timeBase
        outFormat = out
        return [.video(out)]
    }

    public func process(synced: borrowing SyncedFrames, output: NodeOutput) throws {
        guard let outFormat else { throw NodeFailure("stack: not configured") }
        let frame = synced.newFrame(outFormat)
        let dst = frame.planes!
        for k in 0..<synced.count {
            let o = origins[k], size = sizes[k]
            if let src = synced.planes(k) {
                guard src.width == size.width && src.height == size.height && src.format == dst.format else {
                    throw NodeFailure("input \(k) changed to \(src.width)x\(src.height) \(src.format) while running; stack was configured for \(size.width)x\(size.height) \(dst.format)")
                }
                FrameRegion.copy(src, into: dst, x: o.x, y: o.y)
            } else {
                FrameRegion.fillBlack(dst, fullRange: outFormat.isFullRange, x: o.x, y: o.y, width: size.width, height: size.height)
            }
        }
        if layout == .grid {
            // cells without an input
            let cellW = sizes[0].width, cellH = sizes[0].height
            let cells = (dst.width / cellW) * (dst.height / cellH)
            for c in synced.count..<max(synced.count, cells) {
                FrameRegion.fillBlack(dst, fullRange: outFormat.isFullRange, x: c % columns * cellW, y: c / columns * cellH, width: cellW, height: cellH)
            }
        }
        try output.send(consume frame)
    }
}
