import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

/// drawtext's text with ffmpeg's expansion (`expansion=normal`), parsed once: `\c` is `c`, and
/// `%{name:arg:…}` is replaced per frame:
/// - `pts` (`flt`: seconds with 6 decimals; `hms`: `[-]HH:MM:SS.mmm` after a sign column,
///   optional offset seconds; `gmtime`/`localtime` with an optional strftime format),
/// - `n` / `frame_num`: the frame number (from `start-number`),
/// - `e` / `expr`: an expression's value with 6 decimals; `eif` / `expr_int_format`: as an
///   integer in `d`, `u`, `x` or `X`, zero-padded to an optional width,
/// - `gmtime` / `localtime`: the wall clock, with an optional strftime format.
/// Arguments are split at ':' (`\:` is a colon).
struct TextTemplate {
    enum Piece {
        case literal(String)
        case pts(format: String, offset: Double, timeFormat: String?)
        case frameNumber
        case expression(NumericExpression, integerFormat: Character?, width: Int)
        case clock(utc: Bool, format: String)
    }

    let pieces: [Piece]
    /// Whether the text is the same on every frame.
    var isStatic: Bool { pieces.allSatisfy { if case .literal = $0 { true } else { false } } }

    static let functions = ["pts", "n", "frame_num", "e", "expr", "eif", "expr_int_format", "gmtime", "localtime"]

    /// Parses `text`; `variables` are the names expressions may use (drawtext's, in its order).
    init(_ text: String, expand: Bool, variables: [String]) throws {
        guard expand else { pieces = [.literal(text)]; return }
        var pieces: [Piece] = []
        var literal = ""
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if c == "\\", let next = chars.popFirst() { literal.append(next); continue }
            guard c == "%", chars.first == "{" else { literal.append(c); continue }
            chars = chars.dropFirst()
            // the arguments up to the closing brace, split at unescaped colons
            var args: [String] = [""]
            var closed = false
            while let d = chars.popFirst() {
                if d == "\\", let e = chars.popFirst() { args[args.count - 1].append(e) }
                else if d == "}" { closed = true; break }
                else if d == ":" { args.append("") }
                else { args[args.count - 1].append(d) }
            }
            guard closed else { throw NodeFailure("text: '%{' without its closing '}' in '\(text)'") }
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = "" }
            pieces.append(try Self.piece(args, variables: variables))
        }
        if !literal.isEmpty || pieces.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    static func piece(_ args: [String], variables: [String]) throws -> Piece {
        let name = args[0], rest = Array(args.dropFirst())
        func count(_ r: ClosedRange<Int>) throws {
            guard r.contains(rest.count) else {
                throw NodeFailure("text: %{\(name)} takes \(r.lowerBound == r.upperBound ? "\(r.lowerBound)" : "\(r.lowerBound)…\(r.upperBound)") argument(s), found \(rest.count)")
            }
        }
        func expression(_ s: String) throws -> NumericExpression {
            do { return try NumericExpression(s, variables: variables) } catch {
                throw NodeFailure("text: in %{\(name)}: \(error)")
            }
        }
        switch name {
        case "pts":
            try count(0...3)
            let format = rest.first ?? "flt"
            guard ["flt", "hms", "gmtime", "localtime"].contains(format) else {
                throw NodeFailure("text: %{pts:\(format)}: the format must be flt, hms, gmtime or localtime")
            }
            var offset = 0.0
            if rest.count >= 2 {
                guard let o = Double(rest[1]), o.isFinite else {
                    throw NodeFailure("text: %{pts:\(format):\(rest[1])}: the offset must be a number of seconds")
                }
                offset = o
            }
            return .pts(format: format, offset: offset, timeFormat: rest.count >= 3 ? rest[2] : nil)
        case "n", "frame_num":
            try count(0...0)
            return .frameNumber
        case "e", "expr":
            try count(1...1)
            return .expression(try expression(rest[0]), integerFormat: nil, width: 0)
        case "eif", "expr_int_format":
            try count(2...3)
            guard rest[1].count == 1, let f = rest[1].first, "dxXu".contains(f) else {
                throw NodeFailure("text: %{eif:…:\(rest[1])}: the format must be d, u, x or X")
            }
            var width = 0
            if rest.count == 3 {
                guard let w = Int(rest[2]), (0...100).contains(w) else {
                    throw NodeFailure("text: %{eif:…:\(rest[2])}: the width must be a whole number 0…100")
                }
                width = w
            }
            return .expression(try expression(rest[0]), integerFormat: f, width: width)
        case "gmtime", "localtime":
            try count(0...1)
            return .clock(utc: name == "gmtime", format: rest.first ?? "%Y-%m-%d %H:%M:%S")
        default:
            throw NodeFailure("text: unknown function %{\(name)}; known: \(functions.joined(separator: ", "))")
        }
    }

    /// The text for one frame: `seconds` is its time (NaN when unknown), `frame` its number,
    /// `variables` the expression values.
    func expand(seconds: Double, frame: Int, variables: [Double]) -> String {
        var out = ""
        for p in pieces {
            switch p {
            case .literal(let s): out += s
            case .frameNumber: out += String(frame)
            case .pts(let format, let offset, let timeFormat):
                let t = seconds + offset
                switch format {
                case "flt": out += Self.fixed(t, decimals: 6)
                case "hms": out += Self.hms(t)
                default: out += Self.strftime(Int(t.isFinite ? t : 0), utc: format == "gmtime", timeFormat ?? "%Y-%m-%d %H:%M:%S")
                }
            case .expression(let e, let f, let width):
                let v = e.evaluate(variables)
                guard let f else { out += Self.fixed(v, decimals: 6); continue }
                // ffmpeg converts to int; out of range or NaN prints as 0 here rather than undefined
                let i = v.isFinite && abs(v) < 2_147_483_648 ? Int32(v) : 0
                var digits: String
                switch f {
                case "d": digits = String(abs(Int(i)))
                case "u": digits = String(UInt32(bitPattern: i))
                case "x": digits = String(UInt32(bitPattern: i), radix: 16)
                default: digits = String(UInt32(bitPattern: i), radix: 16, uppercase: true)
                }
                let negative = f == "d" && i < 0
                let pad = width - digits.count - (negative ? 1 : 0)
                if pad > 0 { digits = String(repeating: "0", count: pad) + digits }
                out += (negative ? "-" : "") + digits
            case .clock(let utc, let format):
                out += Self.strftime(time(nil), utc: utc, format)
            }
        }
        return out
    }

    /// printf's "%.Nf".
    static func fixed(_ v: Double, decimals: Int) -> String {
        if v.isNaN { return "nan" }
        if v.isInfinite { return v < 0 ? "-inf" : "inf" }
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([v]) { vsnprintf(&buffer, buffer.count, "%.\(decimals)f", $0) }
        return String(cString: buffer)
    }

    /// ffmpeg's `hms`: a sign column (space or '-'), then HH:MM:SS.mmm of the rounded milliseconds.
    static func hms(_ t: Double) -> String {
        guard t.isFinite else { return " ??:??:??.???" }
        var ms = Int64((t * 1000).rounded(.toNearestOrEven))  // llrint
        var sign = " "
        if ms < 0 { sign = "-"; ms = -ms }
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let milli = ms % 1000
        return sign + two(ms / 3_600_000) + ":" + two(ms / 60_000 % 60) + ":" + two(ms / 1000 % 60) + "."
            + (milli < 10 ? "00" : milli < 100 ? "0" : "") + "\(milli)"
    }

    static func strftime(_ seconds: Int, utc: Bool, _ format: String) -> String {
        var t = time_t(seconds), parts = tm()
        if utc { gmtime_r(&t, &parts) } else { localtime_r(&t, &parts) }
        var buffer = [CChar](repeating: 0, count: 256)
        let n = Glibc.strftime(&buffer, buffer.count, format, &parts)
        return n > 0 ? String(cString: buffer) : ""
    }
}
