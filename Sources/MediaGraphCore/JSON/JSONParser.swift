/// A JSON syntax error with its position.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation
    public var description: String { "\(location): \(message)" }
}

/// A strict JSON parser (RFC 8259) that records the line and column of every value.
/// Duplicate keys in an object are an error (a graph file with two nodes of the same id).
/// Input may come from strangers: it is bounded by `JSONLimits` and parsed in time linear in its
/// length; every rejection names the line and column and the limit.
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    public static func parse(_ text: String) throws -> JSONValue {
        var p = JSONParser(bytes: Array(text.utf8))
        if p.bytes.count > JSONLimits.maxBytes {
            // point at where the limit was crossed
            p.advancePosition(to: JSONLimits.maxBytes)
            throw p.error("the JSON text is \(p.bytes.count) bytes, more than the limit of \(JSONLimits.maxBytes) bytes (\(JSONLimits.maxBytes >> 20) MiB)")
        }
        p.skipSpace()
        let v = try p.value()
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("unexpected \(p.describeHere()) after the end of the JSON value") }
        return v
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Moves to byte `offset`, counting lines on the way (only for the size-limit message).
    private mutating func advancePosition(to offset: Int) {
        while i < offset && i < bytes.count {
            if bytes[i] == 0x0a { line += 1; lineStart = i + 1 }
            i += 1
        }
    }

    private var here: SourceLocation { SourceLocation(line: line, column: i - lineStart + 1) }

    private func error(_ message: String, at loc: SourceLocation? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, location: loc ?? here)
    }

    private func describeHere() -> String {
        guard i < bytes.count else { return "end of file" }
        let c = bytes[i]
        if c >= 0x21 && c < 0x7f { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16))"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0d: i += 1
            case 0x0a: i += 1; line += 1; lineStart = i
            default: return
            }
        }
    }

    private mutating func value() throws -> JSONValue {
        guard i < bytes.count else { throw error("unexpected end of file, expected a value (the file is truncated?)") }
        let loc = here
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(loc)
        case UInt8(ascii: "["): return try array(loc)
        case UInt8(ascii: "\""): return .string(try string(), loc)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true, loc)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false, loc)
        case UInt8(ascii: "n"): try literal("null"); return .null(loc)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number(), loc)
        default: throw error("unexpected \(describeHere()), expected a value")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
            throw error("unexpected \(describeHere()), expected a value")
        }
        i += w.count
    }

    private mutating func object(_ loc: SourceLocation) throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        var keys = Set<String>()   // linear duplicate check, however many keys
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members, loc) }
        while true {
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside the object opened at \(loc) (missing '}'?)") }
            guard bytes[i] == UInt8(ascii: "\"") else { throw error("unexpected \(describeHere()), expected a key in double quotes") }
            let keyLoc = here
            let key = try string()
            if !keys.insert(key).inserted { throw error("duplicate key \"\(key)\" in the object opened at \(loc)", at: keyLoc) }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("unexpected \(describeHere()), expected ':' after key \"\(key)\"") }
            i += 1
            skipSpace()
            members.append((key: key, value: try value()))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside the object opened at \(loc) (missing '}'?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members, loc) }
            throw error("unexpected \(describeHere()), expected ',' or '}'")
        }
    }

    /// One level deeper (an object or array opens here); the parser recurses per level, so the
    /// depth is bounded to keep the stack bounded.
    private mutating func enter() throws {
        depth += 1
        if depth > JSONLimits.maxDepth {
            throw error("nesting deeper than \(JSONLimits.maxDepth) levels of objects and arrays (the limit)")
        }
    }

    private mutating func array(_ loc: SourceLocation) throws -> JSONValue {
        try enter()
        defer { depth -= 1 }
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items, loc) }
        while true {
            skipSpace()
            items.append(try value())
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside the array opened at \(loc) (missing ']'?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items, loc) }
            throw error("unexpected \(describeHere()), expected ',' or ']'")
        }
    }

    private mutating func string() throws -> String {
        let start = here
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if c == 0x0a { throw error("line break inside the string started at \(start) (missing '\"'?)") }
            if c < 0x20 { throw error("control character 0x\(String(c, radix: 16)) inside a string") }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5c)
                case UInt8(ascii: "/"): out.append(0x2f)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    let escape = SourceLocation(line: line, column: i - lineStart)   // at the backslash
                    var code = try hex4()
                    if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired UTF-16 surrogate \\u\(hex(code)): a low surrogate (\\uDC00…\\uDFFF) must follow a high one (\\uD800…\\uDBFF)", at: escape)
                    }
                    if (0xD800...0xDBFF).contains(code) {
                        guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate \\u\(hex(code)): a high surrogate (\\uD800…\\uDBFF) must be followed by a low one (\\uDC00…\\uDFFF)", at: escape)
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw error("unpaired UTF-16 surrogate \\u\(hex(code)): it is followed by \\u\(hex(low)), not by a low surrogate (\\uDC00…\\uDFFF)", at: escape)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // every code left is a valid scalar: below 0xD800, 0xE000…0xFFFF, or a pair's 0x10000…0x10FFFF
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape", at: escape) }
                    var utf8 = String(Character(scalar)).utf8.makeIterator()
                    while let b = utf8.next() { out.append(b) }
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(bytes[i])))' in a string")
                }
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        throw error("unexpected end of file inside the string started at \(start) (missing '\"'?)")
    }

    private func hex(_ code: UInt32) -> String {
        let h = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 < bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for k in 1...4 {
            let c = bytes[i + k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
        }
        i += 4
        return v
    }

    private mutating func number() throws -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] >= UInt8(ascii: "0"), bytes[i + 1] <= UInt8(ascii: "9") {
            throw error("invalid number: leading zeros are not allowed")
        }
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }
        if digits() == 0 { throw error("invalid number: expected a digit") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            if digits() == 0 { throw error("invalid number: expected a digit after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { throw error("invalid number: expected a digit in the exponent") }
        }
        let startLocation = SourceLocation(line: line, column: start - lineStart + 1)
        if i - start > JSONLimits.maxNumberLength {
            throw error("a number of \(i - start) characters, more than the limit of \(JSONLimits.maxNumberLength)", at: startLocation)
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text) else { throw error("invalid number \(text)", at: startLocation) }
        guard v.isFinite else {
            throw error("number \(text) is out of range: numbers must be finite (within ±\(Double.greatestFiniteMagnitude))", at: startLocation)
        }
        return v
    }
}
