import MediaGraphCore

/// A file-name pattern for a series of pictures: `%d` or `%05d` is the picture's number, `%t`
/// its time as `HH-MM-SS.mmm` (no colons: they are not allowed in names on every system), `%%`
/// a percent sign. Parsed once when the node is made; `name(number:seconds:)` allocates only
/// the result.
struct ImageNamePattern: Sendable {
    enum Piece: Sendable, Equatable {
        case literal(String)
        case number(width: Int)
        case time
    }

    let text: String
    let pieces: [Piece]

    var hasNumber: Bool { pieces.contains { if case .number = $0 { return true } else { return false } } }
    var hasTime: Bool { pieces.contains(.time) }
    /// Whether two pictures can get different names.
    var varies: Bool { hasNumber || hasTime }

    /// Parses `text`; errors name `param` and the character at fault.
    init(_ text: String, param: String) throws {
        self.text = text
        var pieces: [Piece] = []
        var literal = ""
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            guard c == "%" else { literal.append(c); i += 1; continue }
            let start = i
            i += 1
            var digits = ""
            while i < chars.count, let _ = chars[i].wholeNumberValue, chars[i].isASCII { digits.append(chars[i]); i += 1 }
            guard i < chars.count else {
                throw NodeFailure("param '\(param)': '\(text)' ends in an unfinished '%'; expected %d, %05d, %t or %%")
            }
            switch chars[i] {
            case "%" where digits.isEmpty:
                literal.append("%")
            case "d":
                let width = Int(digits) ?? 0
                guard width <= 12 else {
                    throw NodeFailure("param '\(param)': '\(text)': width \(digits) in '%\(digits)d' is too large (at most 12 digits)")
                }
                if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
                pieces.append(.number(width: width))
            case "t" where digits.isEmpty:
                if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
                pieces.append(.time)
            default:
                throw NodeFailure("param '\(param)': '\(text)': '\(String(chars[start...i]))' is not a field; expected %d, %05d, %t or %% (a literal percent sign)")
            }
            i += 1
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The file name for picture `number` taken at `seconds`.
    func name(number: Int, seconds: Double) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let s): out += s
            case .number(let width):
                let digits = String(Swift.abs(number))
                let padded = digits.count < width ? String(repeating: "0", count: width - digits.count) + digits : digits
                out += number < 0 ? "-" + padded : padded
            case .time: out += Self.clock(seconds)
            }
        }
        return out
    }

    /// `HH-MM-SS.mmm` (hours grow past 99 if they must).
    static func clock(_ seconds: Double, separator: String = "-") -> String {
        let ms = Int64((Swift.max(0, seconds.isFinite ? seconds : 0) * 1000).rounded())
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let frac = ms % 1000
        let fracText = frac < 10 ? "00\(frac)" : frac < 100 ? "0\(frac)" : "\(frac)"
        return [two(ms / 3_600_000), two(ms / 60_000 % 60), two(ms / 1000 % 60)].joined(separator: separator) + ".\(fracText)"
    }

    /// The time as people read it in messages: HH:MM:SS.mmm.
    static func displayClock(_ seconds: Double) -> String { clock(seconds, separator: ":") }
}
