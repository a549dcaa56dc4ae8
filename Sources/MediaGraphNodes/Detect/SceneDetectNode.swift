import Foundation
import MediaGraphCore
import MediaGraphKernels

/// `scenedetect`: scores how much each picture differs from the one before and reports the
/// scene changes, as ffmpeg 5.1's `scdet` does, with its numbers: the mean absolute difference
/// of the luma plane (of every byte for packed RGB), as a percentage of the sample range (the
/// MAFD), and the score is the smaller of it and its change since the previous picture, so a
/// steady pan scores low and a cut high; a picture scoring at least `threshold` is a change.
/// The frames pass unchanged, or with `changes-only` only the scene changes (ffmpeg's sc_pass:
/// one picture per scene, for thumbnails or a contact sheet). The changes go to the notes in
/// ffmpeg's words and to `path`.
public final class SceneDetectNode: RegisteredNode, VideoNode {
    static let formats: [PixelFormat] = [.yuv420p, .yuv422p, .yuv444p, .gray, .rgba, .bgra, .yuv420p10, .yuv422p10, .yuv444p10]
    public static let typeInfo = NodeTypeInfo(
        name: "scenedetect",
        doc: "Finds scene changes: pictures that differ from the one before by at least 'threshold' (ffmpeg's scdet, the same scores); the frames pass unchanged (or only the changes, with 'changes-only'), the changes go to the run's notes and to 'path' as JSON.",
        category: .filter,
        inputs: [PortSpec("in", .video(formats), doc: "raw video")],
        outputs: [PortSpec("out", .video(formats), doc: "the same frames, or only the scene changes")],
        params: ParamSpec.list(thresholdParam, changesOnlyParam, pathParam))
    static let thresholdParam = Param<Double>("threshold", 0...100, default: 10, doc: "the score (0–100) from which a picture counts as a scene change (ffmpeg's threshold)")
    static let changesOnlyParam = Param<Bool>("changes-only", default: false, doc: "pass on only the pictures that are scene changes (ffmpeg's sc_pass)")
    static let pathParam = Param<String?>.path("path", role: .output, doc: "a JSON file listing the scene changes (time in seconds, score), written whole at the end")
    /// Scene changes named in the notes; the rest are counted.
    static let noteLimit = 200

    let threshold: Double
    let changesOnly: Bool
    let path: String?
    var file: JSONListFile?
    var bitDepth = 8
    /// Bytes (8-bit) or samples (10-bit) a row of the compared plane.
    var rowLength = 0
    var previous: SampleBuffer?
    var previousMAFD = 0.0
    var noteLines: [String] = []
    var changes = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        threshold = p[Self.thresholdParam]
        changesOnly = p[Self.changesOnlyParam]
        path = p[Self.pathParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        bitDepth = v.pixelFormat.bitDepth
        // ffmpeg: the luma plane of planar YUV, the whole line (every byte) of packed RGB
        rowLength = v.pixelFormat.isRGB ? 4 * v.width : v.width
        return [inputs[0].format]
    }

    public func start() throws {
        if let path { file = try JSONListFile(path: path) }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let pts = frame.pts, timeBase = frame.timeBase
        let buffer = frame.take()
        let score = self.score(buffer)
        previous = buffer
        let change = score >= threshold
        if change { try report(score: score, pts: pts, timeBase: timeBase) }
        if change || !changesOnly { try output.send(buffer) }
    }

    /// ffmpeg's scene score of `buffer` against the previous picture (0 for the first).
    func score(_ buffer: SampleBuffer) -> Double {
        guard let prev = previous, let a = prev.planes, let b = buffer.planes,
              a.width == b.width, a.height == b.height else { return 0 }
        let sad = bitDepth > 8
            ? SumOfDifferences.words(a.data0, strideA: a.stride0, b.data0, strideB: b.stride0, width: rowLength, height: a.height)
            : SumOfDifferences.bytes(a.data0, strideA: a.stride0, b.data0, strideB: b.stride0, width: rowLength, height: a.height)
        let count = Double(rowLength * a.height)
        let mafd = Double(sad) * 100 / count / Double(1 << bitDepth)
        let score = min(max(min(mafd, abs(mafd - previousMAFD)), 0), 100)
        previousMAFD = mafd
        return score
    }

    func report(score: Double, pts: Int64, timeBase: Rational) throws {
        let seconds = pts == BufferMetadata.noTime ? Double.nan : Double(pts) * Double(timeBase.num) / Double(timeBase.den)
        if let file {
            try file.append("\"time\": \(seconds.isFinite ? "\(seconds)" : "null"), \"score\": \(score)")
        }
        if noteLines.count < Self.noteLimit {
            // ffmpeg's log line: the score to 3 decimals, the time as av_ts2timestr prints it
            let time = pts == BufferMetadata.noTime ? "NOPTS" : String(format: "%.6g", seconds)
            noteLines.append("lavfi.scd.score: \(String(format: "%.3f", score)), lavfi.scd.time: \(time)")
        }
        changes += 1
    }

    public func finish(output: NodeOutput) throws {
        previous = nil
        try file?.finish()
    }

    public func abort() {
        previous = nil
        file?.discard()
    }

    public var runNotes: [String] {
        var lines = noteLines
        if changes == 0 { lines.append("no scene change scored \(threshold) or more") }
        if changes > noteLines.count {
            lines.append("\(changes - noteLines.count) more scene changes\(path.map { " (all \(changes) in '\($0)')" } ?? "; give param 'path' for the full list")")
        }
        return lines
    }
}
