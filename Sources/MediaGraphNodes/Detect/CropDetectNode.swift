import Foundation
import MediaGraphCore

/// `cropdetect`: finds the black borders around a picture and suggests the `crop` that removes
/// them, as ffmpeg 5.1's `cropdetect` does, with its numbers: a row or column is border while the
/// mean of its luma (integer division) is at most `limit` (a fraction of white below 1, else a
/// luma value; rounded to a whole value as `lrint`), with `max-outliers` brighter lines allowed
/// inside the border; the borders only shrink from frame to frame (the area grows to cover every
/// frame seen) until `reset` frames have been measured; the first `skip` frames are not looked
/// at; the suggested x and y are rounded up to even and the width and height down to multiples
/// of `round`, the remainder split around the area. The frames pass unchanged; every change of
/// the suggestion goes to `path`, the last one to the notes in ffmpeg's words.
public final class CropDetectNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .yuv420p10, .yuv422p10, .yuv444p10]
    public static let typeInfo = NodeTypeInfo(
        name: "cropdetect",
        doc: "Finds black borders and suggests the crop that removes them (ffmpeg's cropdetect, the same suggestion); the frames pass unchanged, the last suggestion goes to the run's notes and every change of it to 'path' as JSON.",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video (RGB is converted)")],
        outputs: [PortSpec("out", .video(formats), doc: "the same frames")],
        params: ParamSpec.list(limitParam, roundParam, resetParam, skipParam, maxOutliersParam, pathParam))
    static let limitParam = Param<Double>("limit", 0...65535, default: 24.0 / 255,
                                          doc: "a line is border while its mean luma is at most this: below 1 a fraction of white, else a luma value (ffmpeg's limit; default 24 of 255)")
    static let roundParam = Param<Int>("round", 0...65536, default: 16, doc: "the suggested width and height are multiples of this (an odd value is doubled, 0 and 1 mean 16; ffmpeg's round)")
    static let resetParam = Param<Int>("reset", 0...Int(Int32.max), default: 0, doc: "start measuring afresh after this many frames (0: never; ffmpeg's reset)")
    static let skipParam = Param<Int>("skip", 0...Int(Int32.max), default: 2, doc: "frames at the start not looked at (ffmpeg's skip)")
    static let maxOutliersParam = Param<Int>("max-outliers", 0...Int(Int32.max), default: 0, doc: "brighter lines allowed inside a border (ffmpeg's max_outliers)")
    static let pathParam = Param<String?>.path("path", role: .output, doc: "a JSON file listing every change of the suggestion (time in seconds, w, h, x, y, and ffmpeg's crop=w:h:x:y), written whole at the end")

    let limitGiven: Double
    let round: Int
    let reset: Int
    let maxOutliers: Int
    let path: String?
    var file: JSONListFile?
    var limit = 0
    var wide = false
    var frameNumber: Int
    /// The border found so far: the first and last rows and columns that are picture.
    var x1 = 0, x2 = 0, y1 = 0, y2 = 0
    var width = 0, height = 0
    var lastLine: String?
    var lastCrop: [Int]?
    var changes = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        limitGiven = p[Self.limitParam]
        let r = p[Self.roundParam]
        // ffmpeg: 0 and 1 mean 16, odd values are doubled (the size stays even for YUV)
        round = r <= 1 ? 16 : (r % 2 == 1 ? 2 * r : r)
        reset = p[Self.resetParam]
        maxOutliers = p[Self.maxOutliersParam]
        frameNumber = -p[Self.skipParam]
        path = p[Self.pathParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        wide = v.pixelFormat.bitDepth > 8
        let scaled = limitGiven < 1 ? limitGiven * Double((1 << v.pixelFormat.bitDepth) - 1) : limitGiven
        limit = Int(scaled.rounded(.toNearestOrEven))  // lrint
        width = v.width
        height = v.height
        startOver()
        return [inputs[0].format]
    }

    func startOver() {
        x1 = width - 1; y1 = height - 1; x2 = 0; y2 = 0
    }

    public func start() throws {
        if let path { file = try JSONListFile(path: path) }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        frameNumber += 1
        if frameNumber > 0 {
            if reset > 0 && frameNumber > reset {
                startOver()
                frameNumber = 1
            }
            try measure(frame.planes, pts: frame.pts, timeBase: frame.timeBase)
        }
        try output.send(frame)
    }

    /// The mean luma of `count` samples `step` samples apart from `start` (ffmpeg's checkline:
    /// an integer mean).
    @inline(__always)
    func mean(_ p: FramePlanes, start: Int, step: Int, count: Int) -> Int {
        var total = 0
        if wide {
            let s = UnsafeRawPointer(p.data0).assumingMemoryBound(to: UInt16.self)
            for i in 0..<count { total &+= Int(s[start + i * step]) }
        } else {
            let s = UnsafePointer(p.data0)
            for i in 0..<count { total &+= Int(s[start + i * step]) }
        }
        return count > 0 ? total / count : 0
    }

    /// From `from` towards `to` (exclusive, by `by`), the first line past the border, with
    /// `max-outliers` bright lines allowed; nil when every line up to `to` is border.
    func firstPicture(from: Int, while more: (Int) -> Bool, by: Int, line: (Int) -> Int) -> Int? {
        var outliers = 0, lastBorder = from, y = from
        while more(y) {
            if line(y) > limit {
                outliers += 1
                if outliers > maxOutliers { return lastBorder }
            } else {
                lastBorder = y + by
            }
            y += by
        }
        return nil
    }

    func measure(_ p: FramePlanes, pts: Int64, timeBase: Rational) throws {
        let rowStep = wide ? p.stride0 / 2 : p.stride0
        let w = p.width, h = p.height
        let row = { (y: Int) in self.mean(p, start: y * rowStep, step: 1, count: w) }
        let column = { (x: Int) in self.mean(p, start: x, step: rowStep, count: h) }
        // the order and bounds of ffmpeg's four searches (each uses the ones before it)
        if let v = firstPicture(from: 0, while: { $0 < self.y1 }, by: 1, line: row) { y1 = v }
        if let v = firstPicture(from: h - 1, while: { $0 > max(self.y2, self.y1) }, by: -1, line: row) { y2 = v }
        if let v = firstPicture(from: 0, while: { $0 < self.x1 }, by: 1, line: column) { x1 = v }
        if let v = firstPicture(from: w - 1, while: { $0 > max(self.x2, self.x1) }, by: -1, line: column) { x2 = v }

        var x = (x1 + 1) & ~1, y = (y1 + 1) & ~1
        var cw = x2 - x + 1, ch = y2 - y + 1
        // C's remainder keeps the sign of the dividend, as Swift's does
        var shrink = cw % round
        cw -= shrink
        x += (shrink / 2 + 1) & ~1
        shrink = ch % round
        ch -= shrink
        y += (shrink / 2 + 1) & ~1

        let seconds = pts == BufferMetadata.noTime ? -1 : Double(pts) * Double(timeBase.num) / Double(timeBase.den)
        let crop = [cw, ch, x, y]
        lastLine = "x1:\(x1) x2:\(x2) y1:\(y1) y2:\(y2) w:\(cw) h:\(ch) x:\(x) y:\(y) pts:\(pts == BufferMetadata.noTime ? "NOPTS" : String(pts)) t:\(String(format: "%f", seconds)) crop=\(cw):\(ch):\(x):\(y)"
        if crop != lastCrop {
            if let file {
                try file.append("\"time\": \(seconds), \"w\": \(cw), \"h\": \(ch), \"x\": \(x), \"y\": \(y), \"crop\": \"\(cw):\(ch):\(x):\(y)\"")
            }
            changes += 1
            lastCrop = crop
        }
    }

    public func finish(output: NodeOutput) throws {
        try file?.finish()
    }

    public func abort() { file?.discard() }

    public var runNotes: [String] {
        guard let lastLine else { return ["no frame measured: the stream ended within the first 'skip' frames"] }
        return [lastLine] + (changes > 1 ? ["the suggestion changed \(changes - 1) time\(changes == 2 ? "" : "s"); every change in \(path.map { "'\($0)'" } ?? "param 'path' if given")"] : [])
    }
}
