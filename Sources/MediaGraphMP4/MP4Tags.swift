import Foundation
import MediaGraphCore

/// Movie-level tags (title, artist, …) as iTunes-style items in `moov/udta/meta/ilst`, the
/// boxes ffmpeg's mp4 muxer writes for `-metadata key=value`, in its order, so players and
/// ffprobe read them back under the same names.
public struct MP4Tags: Sendable, Equatable {
    /// A tag as the graph names it (ffmpeg's key) and the item type it is written as.
    public struct Key: Sendable, Equatable {
        public let name: String
        /// The item's four bytes (© is 0xA9, as in every iTunes file).
        let type: [UInt8]
        /// "N" or "N/M", written as the binary item iTunes uses for track and disc numbers.
        let isNumberPair: Bool
    }

    /// Every tag that can be written, in the order ffmpeg 5.1 writes them (`encoder`, which it
    /// fills with its own version, is left out).
    public static let keys: [Key] = [
        text("title", "\u{A9}nam"), text("artist", "\u{A9}ART"), text("album_artist", "aART"), text("composer", "\u{A9}wrt"),
        text("album", "\u{A9}alb"), text("date", "\u{A9}day"), text("comment", "\u{A9}cmt"), text("genre", "\u{A9}gen"),
        text("copyright", "cprt"), text("grouping", "\u{A9}grp"), text("lyrics", "\u{A9}lyr"), text("description", "desc"),
        Key(name: "track", type: Array("trkn".utf8), isNumberPair: true), Key(name: "disc", type: Array("disk".utf8), isNumberPair: true),
    ]

    private static func text(_ name: String, _ type: String) -> Key {
        Key(name: name, type: type.unicodeScalars.map { UInt8($0.value) }, isNumberPair: false)
    }

    /// The tags given, in `keys` order.
    public let items: [(key: Key, value: String)]

    public static func == (a: MP4Tags, b: MP4Tags) -> Bool {
        a.items.map(\.key.name) == b.items.map(\.key.name) && a.items.map(\.value) == b.items.map(\.value)
    }

    public enum TagError: Error, CustomStringConvertible, Equatable {
        case unknownKey(String)
        case notANumberPair(key: String, value: String)

        public var description: String {
            switch self {
            case .unknownKey(let k):
                return "unknown tag '\(k)'; expected one of \(MP4Tags.keys.map(\.name).joined(separator: ", "))"
            case .notANumberPair(let k, let v):
                return "tag '\(k)': expected a number or \"number/total\" (0…65535), found \"\(v)\""
            }
        }
    }

    /// Tags by name (case does not matter, as in ffmpeg); empty values are left out.
    public init(_ tags: [(name: String, value: String)]) throws {
        var byName: [String: String] = [:]
        for (name, value) in tags {
            let key = name.lowercased()
            guard let known = Self.keys.first(where: { $0.name == key }) else { throw TagError.unknownKey(name) }
            if known.isNumberPair, Self.numberPair(value) == nil { throw TagError.notANumberPair(key: name, value: value) }
            byName[key] = value
        }
        items = Self.keys.compactMap { k in byName[k.name].flatMap { $0.isEmpty ? nil : (k, $0) } }
    }

    /// The tags of a source file that can be written here (others, and track or disc values
    /// that are not numbers, are left out as ffmpeg leaves them), then `overrides` on top: a
    /// given value replaces the copied one, an empty one removes it (ffmpeg's `-metadata key=`).
    public init(copying source: TagList, overrides: MP4Tags?, removing: Set<String> = []) {
        var byName: [String: String] = [:]
        for (name, value) in source.entries.map({ ($0.key, $0.value) }) {
            let key = name.lowercased()
            guard let known = Self.keys.first(where: { $0.name == key }), !known.isNumberPair || Self.numberPair(value) != nil else { continue }
            byName[key] = value
        }
        for (key, value) in overrides?.items ?? [] { byName[key.name] = value }
        for key in removing { byName[key] = nil }
        items = Self.keys.compactMap { k in byName[k.name].flatMap { $0.isEmpty ? nil : (k, $0) } }
    }

    public var isEmpty: Bool { items.isEmpty }

    /// "3" or "3/9" as (3, 0) or (3, 9).
    static func numberPair(_ s: String) -> (UInt16, UInt16)? {
        let parts = s.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(parts.count), let n = UInt16(parts[0]) else { return nil }
        if parts.count == 1 { return (n, 0) }
        guard let total = UInt16(parts[1]) else { return nil }
        return (n, total)
    }

    /// meta { hdlr 'mdir' 'appl', ilst { items } }, the first box of moov/udta.
    func write(_ w: inout ByteWriter) {
        w.fullBox("meta", version: 0, flags: 0) { w in
            w.fullBox("hdlr", version: 0, flags: 0) { w in
                w.u32(0)
                w.fourCC("mdir")
                w.fourCC("appl")
                w.zeros(9) // reserved, then an empty name
            }
            w.box("ilst") { w in
                for (key, value) in items { item(&w, key, value) }
            }
        }
    }

    /// One item: its type, then a `data` box (type 1 UTF-8 text, or 0 binary for number pairs).
    private func item(_ w: inout ByteWriter, _ key: Key, _ value: String) {
        let payload: [UInt8]
        if key.isNumberPair, let (n, total) = Self.numberPair(value) {
            payload = [0, 0, UInt8(n >> 8), UInt8(n & 0xFF), UInt8(total >> 8), UInt8(total & 0xFF), 0, 0]
        } else {
            payload = Array(value.utf8)
        }
        w.u32(UInt32(8 + 16 + payload.count))
        w.append(key.type)
        w.box("data") { w in
            w.u32(key.isNumberPair ? 0 : 1)
            w.u32(0) // locale
            w.append(payload)
        }
    }
}
