/// Tags (key = value) in the order a file lists them, with libavutil's AVDictionary rules: keys
/// match whatever their case, setting a key that is there takes its entry out (the last entry
/// moves into its place) and appends the new one, and setting nothing removes it. A muxer that
/// writes tags in order (Matroska, ID3v2) then writes them where ffmpeg writes them.
public struct TagList: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Entry: Hashable, Sendable {
        public let key: String
        public let value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var entries: [Entry] = []

    public init(_ pairs: [(key: String, value: String)] = []) {
        for p in pairs { set(p.key, p.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// The value of `key` (any case), nil when there is none.
    public subscript(key: String) -> String? {
        entries.first { Self.same($0.key, key) }?.value
    }

    /// av_dict_set: the entry of `key` is taken out (the last one fills its place), then
    /// `value`, when there is one, appended.
    public mutating func set(_ key: String, _ value: String?) {
        if let i = entries.firstIndex(where: { Self.same($0.key, key) }) {
            let last = entries.removeLast()
            if i < entries.count { entries[i] = last }
        }
        if let value { entries.append(Entry(key: key, value: value)) }
    }

    /// The same tags under other keys (ffmpeg's ff_metadata_conv: each key is looked up without
    /// case, and the result built by `set` in order).
    public func renamed(_ rename: (String) -> String) -> TagList {
        var out = TagList()
        for e in entries { out.set(rename(e.key), e.value) }
        return out
    }

    /// The entries as a dictionary (a later duplicate, which `set` never makes, would win).
    public var dictionary: [String: String] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
