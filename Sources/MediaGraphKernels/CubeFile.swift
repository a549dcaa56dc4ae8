import Foundation
import MediaGraphCore

/// A .cube file could not be read: which file, which line (1-based; 0 when the file itself
/// could not be read), and what was wrong.
public struct CubeFileError: Error, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message` (`file: message` when the error is not on a line, line 0).
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A 3D colour look-up table as read from an Adobe/Iridas .cube file.
///
/// Accepted: `TITLE "..."`, `LUT_3D_SIZE n` (2…65), `DOMAIN_MIN r g b`, `DOMAIN_MAX r g b`,
/// `LUT_3D_INPUT_RANGE min max`, `#` comments and blank lines, then n³ rows of three numbers with
/// red changing fastest, then green, then blue.
///
/// Limits (Docs/filters.md): files up to `maxFileSize` bytes; every number finite and within
/// ±`valueLimit`; each domain minimum below its maximum.
public struct CubeLUT: Equatable, Sendable {
    public static let sizeRange = 2...65
    /// Largest .cube file read: a 65³ table takes about 8 MB as text, so this leaves room for
    /// comments while bounding the memory a file can claim.
    public static let maxFileSize = 64 << 20
    /// Largest magnitude of a table or domain value. Outputs beyond 0…1 are clipped anyway; the
    /// bound keeps values exact as 32-bit floats and every intermediate of the interpolation
    /// (×255, sums of 8 points) finite: 1e39 would otherwise become infinity.
    public static let valueLimit = 1e6

    // Read-only outside: the kernel relies on table.count == size³ and a valid domain.
    public private(set) var title: String?
    /// Points per axis.
    public private(set) var size: Int
    /// Input values mapped to the first and last grid point, per channel (r, g, b).
    public private(set) var domainMin: SIMD3<Double>
    public private(set) var domainMax: SIMD3<Double>
    /// size³ output colours; entry `r + g·size + b·size²` is grid point (r, g, b).
    public private(set) var table: [SIMD3<Float>]

    /// Builds a table (domain 0…1) from a function of the grid colour (each component 0…1).
    public init(size: Int, title: String? = nil, _ f: (SIMD3<Double>) -> SIMD3<Double>) throws {
        guard CubeLUT.sizeRange.contains(size) else {
            throw KernelError.parameterOutOfRange(name: "lut3d.size", value: Double(size), range: 2...65)
        }
        self.size = size
        self.title = title
        domainMin = .zero
        domainMax = .one
        table = []
        table.reserveCapacity(size * size * size)
        let step = 1 / Double(size - 1)
        for b in 0..<size {
            for g in 0..<size {
                for r in 0..<size {
                    let v = f(SIMD3(Double(r), Double(g), Double(b)) * step)
                    // Non-finite values would poison the interpolation; keep them out.
                    table.append(SIMD3<Float>(Float(v.x.isFinite ? v.x : 0), Float(v.y.isFinite ? v.y : 0),
                                              Float(v.z.isFinite ? v.z : 0)))
                }
            }
        }
    }

    /// Reads and parses the .cube file at `path`; errors name `path` and the line.
    public init(contentsOfFile path: String) throws {
        try self.init(parsing: try Self.readFile(path), file: path)
    }

    /// The bytes of the file at `path`, at most `maxFileSize` of them (a pipe has no size to
    /// check first: the reader stops one byte past the limit).
    static func readFile(_ path: String) throws -> [UInt8] {
        do {
            return try SmallFileReader.read(path, limit: maxFileSize)
        } catch {
            let message = error.message(for: ".cube file")
            throw CubeFileError(file: path, line: 0, message: message)
        }
    }

    /// Parses the text of a .cube file; `file` is the name used in errors.
    public init(parsing text: String, file: String) throws {
        try self.init(parsing: Array(text.utf8), file: file)
    }

    /// Parses the bytes of a .cube file; `file` is the name used in errors. (The entry point for
    /// fuzzing: the same parser as for files.)
    public init(parsing bytes: [UInt8], file: String) throws {
        guard bytes.count <= Self.maxFileSize else {
            throw CubeFileError(file: file, line: 0, message: "the file is larger than the limit of \(Self.maxFileSize) bytes for a .cube file")
        }
        var parser = CubeParser(file: file)
        try parser.parse(bytes)
        title = parser.title
        size = parser.size
        domainMin = parser.domainMin
        domainMax = parser.domainMax
        table = parser.table
    }
}

/// The line-by-line reading behind `CubeLUT(parsing:)`.
struct CubeParser {
    let file: String
    var title: String?
    var size = 0
    var sizeLine = 0
    var domainMin = SIMD3<Double>.zero
    var domainMax = SIMD3<Double>.one
    var domainLine = 0
    var table: [SIMD3<Float>] = []

    init(file: String) { self.file = file }

    func fail(_ line: Int, _ message: String) -> CubeFileError {
        CubeFileError(file: file, line: line, message: message)
    }

    mutating func parse(_ bytes: [UInt8]) throws {
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            lineNumber += 1
            try parseLine(bytes[start..<end], lineNumber)
            start = end + 1
        }
        let lastLine = max(lineNumber, 1)
        guard size > 0 else {
            throw fail(lastLine, "no LUT_3D_SIZE line; expected LUT_3D_SIZE n (n in 2…65) before the table")
        }
        let expected = size * size * size
        guard table.count == expected else {
            throw fail(lastLine, "the table ends after \(table.count) rows; LUT_3D_SIZE \(size) needs \(expected)")
        }
        for c in 0..<3 where !(domainMin[c] < domainMax[c]) {
            throw fail(domainLine, "DOMAIN_MIN \(domainMin[c]) must be below DOMAIN_MAX \(domainMax[c]) "
                + "for \(["red", "green", "blue"][c])")
        }
    }

    mutating func parseLine(_ raw: ArraySlice<UInt8>, _ line: Int) throws {
        // Cut the comment, then split on blanks (\r of CRLF files included).
        var content = raw
        if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = content[..<hash] }
        // No line needs more than a keyword and 3 numbers: keep 5 tokens and count the rest, so a
        // line of a million numbers costs no memory.
        var tokens: [Substring] = []
        var extraTokens = 0
        var i = content.startIndex
        while i < content.endIndex {
            while i < content.endIndex && Self.isBlank(content[i]) { i += 1 }
            let s = i
            while i < content.endIndex && !Self.isBlank(content[i]) { i += 1 }
            if s < i {
                if tokens.count < 5 { tokens.append(Substring(decoding: content[s..<i], as: UTF8.self)) } else { extraTokens += 1 }
            }
        }
        guard let keyword = tokens.first else { return }
        let arguments = tokens.dropFirst()
        switch keyword {
        case "TITLE":
            let text = String(decoding: content, as: UTF8.self)
            let rest = text.drop { $0 != "E" }.dropFirst().trimmingCharacters(in: .whitespacesAndNewlines)
            title = rest.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        case "LUT_3D_SIZE":
            guard sizeLine == 0 else {
                throw fail(line, "LUT_3D_SIZE appears again (first on line \(sizeLine))")
            }
            guard arguments.count == 1, let first = arguments.first, let n = Int(first) else {
                let shown = arguments.joined(separator: " ") + (extraTokens > 0 ? " …" : "")
                throw fail(line, "LUT_3D_SIZE needs one whole number, found '\(shown.prefix(64))'")
            }
            guard CubeLUT.sizeRange.contains(n) else {
                throw fail(line, "LUT_3D_SIZE \(n) is out of range 2…65")
            }
            size = n
            sizeLine = line
            table.reserveCapacity(n * n * n)
        case "LUT_1D_SIZE":
            throw fail(line, "1D LUTs (LUT_1D_SIZE) are not supported; expected LUT_3D_SIZE")
        case "DOMAIN_MIN", "DOMAIN_MAX":
            let v = try numbers(arguments, 3, extra: extraTokens, what: String(keyword), line)
            if keyword == "DOMAIN_MIN" { domainMin = SIMD3(v[0], v[1], v[2]) } else { domainMax = SIMD3(v[0], v[1], v[2]) }
            domainLine = line
        case "LUT_3D_INPUT_RANGE":
            let v = try numbers(arguments, 2, extra: extraTokens, what: "LUT_3D_INPUT_RANGE", line)
            domainMin = SIMD3(repeating: v[0])
            domainMax = SIMD3(repeating: v[1])
            domainLine = line
        default:
            guard size > 0 else {
                if let c = keyword.utf8.first, Self.isLetter(c) {
                    throw fail(line, "unknown keyword '\(keyword)'; expected TITLE, LUT_3D_SIZE, DOMAIN_MIN, "
                        + "DOMAIN_MAX or LUT_3D_INPUT_RANGE")
                }
                throw fail(line, "table row before the LUT_3D_SIZE line")
            }
            let v = try numbers(tokens[...], 3, extra: extraTokens, what: "a table row", line)
            guard table.count < size * size * size else {
                throw fail(line, "more than \(size * size * size) table rows (LUT_3D_SIZE \(size))")
            }
            table.append(SIMD3<Float>(Float(v[0]), Float(v[1]), Float(v[2])))
        }
    }

    /// `count` numbers from `tokens` (`extra`: tokens beyond those kept), each finite and
    /// within ±`CubeLUT.valueLimit`.
    func numbers(_ tokens: ArraySlice<Substring>, _ count: Int, extra: Int, what: String, _ line: Int) throws -> [Double] {
        guard tokens.count + extra == count else {
            throw fail(line, "\(what) needs \(count) numbers, found \(tokens.count + extra)")
        }
        return try tokens.map { t in
            guard let v = Double(t), v.isFinite else {
                throw fail(line, "\(what): '\(t.prefix(64))' is not a number")
            }
            guard v.magnitude <= CubeLUT.valueLimit else {
                throw fail(line, "\(what): \(t.prefix(64)) is beyond the limit of ±\(Int(CubeLUT.valueLimit)) for .cube values")
            }
            return v
        }
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 13 }
    static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }
}
