import Foundation
import MediaGraphCore

/// What a detector found (silences, black stretches): written to its `path` as they are found
/// and listed in the run's notes, in the words and number format of ffmpeg's log lines so a
/// script that read those reads these.
///
/// The file is a JSON array of `{"start": s, "end": s, "duration": s}` objects (seconds, full
/// precision; `"channel"` too for per-channel detection), whole or not at all. Memory stays
/// bounded however many spans there are: past `noteLimit` only the count is kept for the notes.
final class DetectedSpans {
    /// The param a detector declares for its file.
    static func pathParam(_ what: String) -> Param<String?> {
        .path("path", role: .output, doc: "a JSON file listing the \(what) found (start, end, duration in seconds), written whole at the end; without it the run's notes list them")
    }
    /// Spans named in the notes; the rest are counted (all are in the file).
    static let noteLimit = 200

    let path: String?
    let kind: String
    /// A span's line in the notes from its channel and its start, end and duration as ffmpeg
    /// prints times: each detector words it as ffmpeg's log line does.
    let noteLine: (_ channel: Int?, _ start: String, _ end: String, _ duration: String) -> String
    private var file: JSONListFile?
    private(set) var count = 0
    private var noteLines: [String] = []

    /// `kind` names what is found ("silence", "black").
    init(path: String?, kind: String, noteLine: @escaping (_ channel: Int?, _ start: String, _ end: String, _ duration: String) -> String) {
        self.path = path
        self.kind = kind
        self.noteLine = noteLine
    }

    func start() throws {
        if let path { file = try JSONListFile(path: path) }
    }

    /// A span from `start` to `end` ticks of `timeBase`; `channel` (from 0) for per-channel spans.
    func record(start: Int64, end: Int64, timeBase: Rational, channel: Int? = nil) throws {
        let s = Self.seconds(start, timeBase), e = Self.seconds(end, timeBase), d = Self.seconds(end - start, timeBase)
        if let file {
            let ch = channel.map { "\"channel\": \($0), " } ?? ""
            try file.append("\(ch)\"start\": \(Self.json(s)), \"end\": \(Self.json(e)), \"duration\": \(Self.json(d))")
        }
        if noteLines.count < Self.noteLimit {
            noteLines.append(noteLine(channel, Self.ffmpegTime(s), Self.ffmpegTime(e), Self.ffmpegTime(d)))
        }
        count += 1
    }

    func finish() throws {
        try file?.finish()
    }

    func abort() { file?.discard() }

    var notes: [String] {
        var lines = noteLines
        if count == 0 { lines.append("no \(kind) found") }
        if count > noteLines.count {
            lines.append("\(count - noteLines.count) more \(kind) spans\(path.map { " (all \(count) in '\($0)')" } ?? "; give param 'path' for the full list")")
        }
        return lines
    }

    static func seconds(_ ticks: Int64, _ tb: Rational) -> Double {
        Double(ticks) * Double(tb.num) / Double(tb.den)
    }

    /// As ffmpeg's `av_ts2timestr` prints a time: `%.6g` seconds.
    static func ffmpegTime(_ seconds: Double) -> String {
        String(format: "%.6g", seconds)
    }

    static func json(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
}
