/// A segment file name template as a DASH SegmentTemplate states it (ISO/IEC 23009-1 5.3.9.4.4):
/// `$RepresentationID$`, `$Number$`, `$Time$` (each number optionally `%0Nd`, zero-padded to
/// N digits) and `$$` for a dollar sign. The player fills it in from the MPD; we fill it in
/// the same way to name the files. `$Bandwidth$` is refused: the bandwidth is known only at
/// the end of the run, after the files are named.
public struct DASHSegmentName: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case text(String)
        case representationID
        case number(width: Int)
        case time(width: Int)
    }

    /// A template that cannot be used, and why.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public var template: String
        public var reason: String
        public var description: String { "'\(template)' \(reason)" }
    }

    /// The template as written, which goes into the MPD.
    public let template: String
    let parts: [Part]

    public var description: String { template }

    /// Whether a name depends on the representation (two representations cannot share a file).
    public var hasRepresentationID: Bool { parts.contains(.representationID) }
    /// Whether every segment of a representation gets a name of its own.
    public var identifiesSegments: Bool {
        parts.contains { if case .number = $0 { true } else if case .time = $0 { true } else { false } }
    }

    /// ffmpeg's `init_seg_name` for MP4 segments: `init-stream$RepresentationID$.m4s`.
    public static let ffmpegInitialization = DASHSegmentName(template: "init-stream$RepresentationID$.m4s",
                                                             parts: [.text("init-stream"), .representationID, .text(".m4s")])
    /// ffmpeg's `media_seg_name` for MP4 segments: `chunk-stream$RepresentationID$-$Number%05d$.m4s`.
    public static let ffmpegSegment = DASHSegmentName(template: "chunk-stream$RepresentationID$-$Number%05d$.m4s",
                                                      parts: [.text("chunk-stream"), .representationID, .text("-"),
                                                              .number(width: 5), .text(".m4s")])

    init(template: String, parts: [Part]) {
        self.template = template
        self.parts = parts
    }

    public init(_ template: String) throws(Invalid) {
        self.template = template
        var parts: [Part] = []
        var text = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            let after = rest.index(after: dollar)
            guard let close = rest[after...].firstIndex(of: "$") else {
                throw Invalid(template: template, reason: "has a '$' without its closing '$' (write $$ for a dollar sign)")
            }
            let name = rest[after..<close]
            rest = rest[rest.index(after: close)...]
            if name.isEmpty {
                text += "$"
                continue
            }
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
            parts.append(try Self.identifier(name, in: template))
        }
        text += rest
        if !text.isEmpty { parts.append(.text(text)) }
        if let c = Self.unusableCharacter(inFileName: parts.map { if case .text(let s) = $0 { s } else { "" } }.joined()) {
            let shown = c.unicodeScalars.first!.value < 0x20 || c.unicodeScalars.first!.value == 0x7F ? "a control character" : "'\(c)'"
            throw Invalid(template: template, reason: "has \(shown): names are file names beside the manifest, without / \\ \" # ? % < > & or control characters")
        }
        if parts.isEmpty { throw Invalid(template: template, reason: "is empty") }
        self.parts = parts
    }

    static func identifier(_ name: Substring, in template: String) throws(Invalid) -> Part {
        let (base, format) = name.firstIndex(of: "%").map { (name[..<$0], name[$0...]) } ?? (name, "")
        var width = 1
        if !format.isEmpty {
            // %0Nd only (the standard's format tag); N from 1 to 9
            guard format.count == 4, format.hasPrefix("%0"), format.hasSuffix("d"),
                  let n = Int(format.dropFirst(2).dropLast()), (1...9).contains(n) else {
                throw Invalid(template: template, reason: "has '\(format)' in $\(name)$: the width format is %0Nd, N from 1 to 9 ($Number%05d$)")
            }
            width = n
        }
        switch base {
        case "RepresentationID" where format.isEmpty: return .representationID
        case "Number": return .number(width: width)
        case "Time": return .time(width: width)
        case "Bandwidth":
            throw Invalid(template: template, reason: "has $Bandwidth$, which is not written: the bandwidth is measured at the end of the run, after the segments are named; use $RepresentationID$")
        default:
            throw Invalid(template: template, reason: "has $\(name)$: expected $RepresentationID$, $Number$, $Time$ (with an optional %0Nd) or $$")
        }
    }

    /// The file name for a representation's segment (`number` from 1; `time` its S@t).
    public func name(representation: Int, number: Int = 0, time: Int64 = 0) -> String {
        var s = ""
        for p in parts {
            switch p {
            case .text(let t): s += t
            case .representationID: s += String(representation)
            case .number(let w): s += Self.padded(String(number), w)
            case .time(let w): s += Self.padded(String(time), w)
            }
        }
        return s
    }

    /// Whether some representation or segment would get the file name `name`, so that another
    /// file of the stream (the MPD, an init segment) is not overwritten by a segment.
    public func canName(_ name: String) -> Bool {
        Self.matches(Substring(name), parts[...])
    }

    /// Text parts match themselves, number parts a run of digits at least as long as the width.
    static func matches(_ s: Substring, _ parts: ArraySlice<Part>) -> Bool {
        guard let first = parts.first else { return s.isEmpty }
        let rest = parts.dropFirst()
        switch first {
        case .text(let t):
            return s.hasPrefix(t) && matches(s.dropFirst(t.count), rest)
        case .representationID, .number, .time:
            let width: Int = switch first {
            case .number(let w), .time(let w): w
            default: 1
            }
            let digits = s.prefix { $0.isASCII && $0.isNumber }.count
            guard digits >= width else { return false }
            return (width...digits).contains { matches(s.dropFirst($0), rest) }
        }
    }

    static func padded(_ digits: String, _ width: Int) -> String {
        digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The first character that cannot stand in a name we write into the MPD as a relative URL
    /// and create beside it: `/` leaves the folder, `\ # ? %` change what a URL means, `" < > &`
    /// would need escaping in XML that players handle unevenly, control characters break lines.
    public static func unusableCharacter(inFileName name: String) -> Character? {
        name.first { c in
            "/\\#?%\"<>&".contains(c) || c.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }
    }
}
