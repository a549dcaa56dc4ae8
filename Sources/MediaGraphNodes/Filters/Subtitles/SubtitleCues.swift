import Foundation

/// The cues of a SubRip (.srt) or WebVTT (.vtt) file: when each is shown, whether at the top or
/// the bottom of the picture, and its lines of plain text. A cue goes to the top for an ASS
/// alignment of the top row (`{\an7}`, `{\an8}`, `{\an9}`, as SRT files write for signs) or a
/// WebVTT `line:` of a line number from the top (0, 1, …) or a percentage below 50. Other styling
/// is dropped: SRT's and WebVTT's tags (`<i>`, `<font color=…>`, `<v Name>`, `<c.class>`,
/// timestamps), other ASS override blocks, the other cue settings; the entities `&amp;`, `&lt;`,
/// `&gt;`, `&nbsp;`, `&lrm;`, `&rlm;` become their characters.
///
/// A malformed timing line is an error naming the file, line and what was found; a cue that
/// ends before it starts is kept out and said in `skipped`.
public struct SubtitleCues: Sendable {
    /// One cue: when it is shown and its lines of plain text.
    public struct Cue: Equatable, Sendable {
        /// Seconds, shown on frames with start ≤ t < end.
        public var start: Double, end: Double
        public var lines: [String]
        /// Shown at the top of the picture rather than the bottom.
        public var atTop = false
    }

    /// The cues, in start order (equal starts in the file's order).
    public private(set) var cues: [Cue] = []
    /// Cues left out, each as "file:line: why", for the node's validation warnings.
    public private(set) var skipped: [String] = []

    /// A file that is not SubRip or WebVTT: the file, line and what was found.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Parses `bytes` (UTF-8, a byte-order mark allowed) of the file `name`: WebVTT when its first
    /// line starts with "WEBVTT", SubRip otherwise.
    public init(_ bytes: [UInt8], name: String) throws(Failure) {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // "\r\n" is one Character in Swift, and a newline like "\n" and a lone "\r"
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let webVTT = lines.first?.hasPrefix("WEBVTT") ?? false
        var i = webVTT ? 1 : 0
        while i < lines.count {
            // a block: lines up to a blank one
            if lines[i].allSatisfy(\.isWhitespace) { i += 1; continue }
            let blockStart = i
            var end = i
            while end < lines.count, !lines[end].allSatisfy(\.isWhitespace) { end += 1 }
            defer { i = end }
            if webVTT, ["NOTE", "STYLE", "REGION"].contains(where: { lines[i] == $0 || lines[i].hasPrefix($0 + " ") || lines[i].hasPrefix($0 + "\t") }) { continue }
            // an identifier (SRT's number, WebVTT's optional id) before the timing line
            var timing = blockStart
            if !lines[timing].contains("-->"), timing + 1 < end { timing += 1 }
            guard let (start, stop) = Self.times(lines[timing]) else {
                let found = String(lines[timing].prefix(60))
                throw Failure(description: "\(name):\(timing + 1): expected a cue's times such as \(webVTT ? "00:00:01.000 --> 00:00:02.500" : "00:00:01,000 --> 00:00:02,500"), found '\(found)'")
            }
            let cueLines = lines[(timing + 1)..<end].map { Self.plain($0) }.filter { !$0.isEmpty }
            guard stop > start else {
                skipped.append("\(name):\(timing + 1): the cue ends (\(stop) s) before it starts (\(start) s); not shown")
                continue
            }
            let raw = lines[(timing + 1)..<end]
            let atTop = raw.contains { $0.contains("{\\an7}") || $0.contains("{\\an8}") || $0.contains("{\\an9}") }
                || (webVTT && Self.lineSettingIsTop(lines[timing]))
            if !cueLines.isEmpty { cues.append(Cue(start: start, end: stop, lines: cueLines, atTop: atTop)) }
        }
        // shown in start order; equal starts keep the file's order
        cues = cues.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
    }

    /// The two times of a timing line ("00:01:02,500 --> 00:01:04,000", WebVTT's
    /// "01:02.500 --> 01:04.000 line:0"), in seconds; nil when it is not one.
    static func times(_ line: Substring) -> (Double, Double)? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let arrow = parts.firstIndex(of: "-->"), arrow == 1, parts.count >= 3,
              let a = seconds(parts[0]), let b = seconds(parts[2]) else { return nil }
        return (a, b)
    }

    /// Whether a WebVTT timing line's `line:` setting counts from the top: a line number 0 or
    /// more, or a percentage below 50 (`line:-1` and `line:90%` are the bottom).
    static func lineSettingIsTop(_ timing: Substring) -> Bool {
        guard let setting = timing.split(separator: " ").first(where: { $0.hasPrefix("line:") }) else { return false }
        let value = setting.dropFirst(5).prefix { $0 != "," }
        if value.hasSuffix("%") { return Double(value.dropLast()).map { $0 < 50 } ?? false }
        return Int(value).map { $0 >= 0 } ?? false
    }

    /// "[H…:]MM:SS[,.]mmm" in seconds (SRT writes a comma, WebVTT a point; both are taken).
    static func seconds(_ s: Substring) -> Double? {
        let fields = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        let last = fields.last!.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," || $0 == "." })
        guard last.count == 2, last[1].count >= 1, last[1].count <= 3 else { return nil }
        func number(_ t: Substring, maxDigits: Int) -> Int? {
            guard !t.isEmpty, t.count <= maxDigits, t.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(t)
        }
        guard let sec = number(last[0], maxDigits: 2), sec < 60, let milli = number(last[1], maxDigits: 3),
              let min = number(fields[fields.count - 2], maxDigits: 2), min < 60 else { return nil }
        let hours = fields.count == 3 ? number(fields[0], maxDigits: 6) : 0
        guard let hours else { return nil }
        let fraction = Double(milli) / (last[1].count == 1 ? 10 : last[1].count == 2 ? 100 : 1000)
        return Double(hours * 3600 + min * 60 + sec) + fraction
    }

    /// A line without its tags, ASS override blocks and entities, trimmed.
    static func plain(_ line: Substring) -> String {
        var out = ""
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            if c == "<", let close = line[i...].firstIndex(of: ">") { i = line.index(after: close); continue }
            if c == "{", line[line.index(after: i)...].first == "\\", let close = line[i...].firstIndex(of: "}") {
                i = line.index(after: close); continue
            }
            if c == "&", let semi = line[i...].prefix(8).firstIndex(of: ";"),
               let ch = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&nbsp;": "\u{A0}", "&lrm;": "\u{200E}", "&rlm;": "\u{200F}"][String(line[i...semi])] {
                out += ch
                i = line.index(after: semi)
                continue
            }
            out.append(c)
            i = line.index(after: i)
        }
        // SRT's line-break escape inside ASS-converted text
        return out.replacingOccurrences(of: "\\N", with: " ").trimmingCharacters(in: .whitespaces)
    }
}
