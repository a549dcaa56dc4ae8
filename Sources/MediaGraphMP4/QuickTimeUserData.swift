import MediaGraphCore

/// Movie tags in a QuickTime movie: user data atoms in moov/udta (`©nam`, `©ART`, …), each a
/// 16-bit length, a language code (packed "und", 0x55C4) and the UTF-8 text, as ffmpeg 5.1's
/// mov muxer writes `-metadata` (it writes no iTunes `meta` in a .mov). It maps only the tags
/// below, in this order, and drops the others; a comment goes into both `©des` and `©cmt`.
public struct QuickTimeUserData {
    /// The `MP4Tags` names a .mov holds, each with its atoms, in ffmpeg's order.
    static let atoms: [(name: String, types: [String])] = [
        ("artist", ["\u{A9}ART"]), ("title", ["\u{A9}nam"]), ("album", ["\u{A9}alb"]), ("date", ["\u{A9}day"]),
        ("comment", ["\u{A9}des", "\u{A9}cmt"]), ("genre", ["\u{A9}gen"]), ("copyright", ["\u{A9}cpy"]),
    ]

    /// The tag names a .mov holds, in `atoms` order.
    public static var names: [String] { atoms.map(\.name) }

    /// A value's length is stored in 16 bits.
    static let maxValueBytes = 0xFFFF

    private let entries: [(type: [UInt8], value: [UInt8])]

    init(_ tags: MP4Tags?) {
        let byName = Dictionary((tags?.items ?? []).map { ($0.key.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        entries = Self.atoms.flatMap { atom -> [(type: [UInt8], value: [UInt8])] in
            guard let value = byName[atom.name], !value.isEmpty else { return [] }
            let bytes = Self.utf8Prefix(Array(value.utf8))
            return atom.types.map { (type: $0.unicodeScalars.map { UInt8($0.value) }, value: bytes) }
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// At most `limit` bytes of UTF-8, ended at a character boundary (a 16-bit length holds
    /// no more; ffmpeg writes the length truncated and the whole text, which readers misparse).
    static func utf8Prefix(_ utf8: [UInt8], limit: Int = maxValueBytes) -> [UInt8] {
        guard utf8.count > limit else { return utf8 }
        var n = limit
        while n > 0 && utf8[n] & 0xC0 == 0x80 { n -= 1 }
        return Array(utf8[..<n])
    }

    func write(_ w: inout ByteWriter) {
        for e in entries {
            w.u32(UInt32(8 + 4 + e.value.count))
            w.append(e.type)
            w.u16(UInt16(e.value.count))
            w.u16(0x55C4) // "und"
            w.append(e.value)
        }
    }
}
