/// EBML (RFC 8794) elements into a byte array: an element ID, its size as a variable-length
/// integer, then its data. Masters nest with `master(_:_:)`, which sizes its body once written,
/// so no element size is computed by hand.
struct EBMLWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// An element ID as stored: its own length marker included (0x1A45DFA3 is four bytes).
    mutating func id(_ id: UInt32) {
        if id > 0xFF_FFFF { bytes.append(UInt8(id >> 24)) }
        if id > 0xFFFF { bytes.append(UInt8((id >> 16) & 0xFF)) }
        if id > 0xFF { bytes.append(UInt8((id >> 8) & 0xFF)) }
        bytes.append(UInt8(id & 0xFF))
    }

    /// A data size in the fewest bytes (`minLength` at least). All ones is reserved for
    /// "unknown", so a value of 2^(7n) - 1 takes n + 1 bytes.
    mutating func size(_ n: UInt64, minLength: Int = 1) {
        var length = max(1, minLength)
        while length < 8 && n >= (UInt64(1) << (7 * UInt64(length))) - 1 { length += 1 }
        let marked = n | (UInt64(1) << (7 * UInt64(length)))
        for k in stride(from: length - 1, through: 0, by: -1) { bytes.append(UInt8((marked >> (8 * UInt64(k))) & 0xFF)) }
    }

    /// An unsigned integer element in the fewest bytes (0 takes one).
    mutating func uint(_ elementID: UInt32, _ v: UInt64) {
        id(elementID)
        var length = 1
        while length < 8 && v >> (8 * UInt64(length)) != 0 { length += 1 }
        size(UInt64(length))
        for k in stride(from: length - 1, through: 0, by: -1) { bytes.append(UInt8((v >> (8 * UInt64(k))) & 0xFF)) }
    }

    /// A signed integer element in the fewest bytes that keep its sign.
    mutating func int(_ elementID: UInt32, _ v: Int64) {
        id(elementID)
        var length = 1
        while length < 8 && !(-(Int64(1) << (8 * Int64(length) - 1)) <= v && v < Int64(1) << (8 * Int64(length) - 1)) { length += 1 }
        size(UInt64(length))
        let u = UInt64(bitPattern: v)
        for k in stride(from: length - 1, through: 0, by: -1) { bytes.append(UInt8((u >> (8 * UInt64(k))) & 0xFF)) }
    }

    /// A float element, 8 bytes (as ffmpeg writes them).
    mutating func float(_ elementID: UInt32, _ v: Double) {
        id(elementID)
        size(8)
        let u = v.bitPattern
        for k in stride(from: 7, through: 0, by: -1) { bytes.append(UInt8((u >> (8 * UInt64(k))) & 0xFF)) }
    }

    /// A string element (ASCII or UTF-8), without a terminator.
    mutating func string(_ elementID: UInt32, _ s: String) { binary(elementID, Array(s.utf8)) }

    mutating func binary(_ elementID: UInt32, _ data: [UInt8]) {
        id(elementID)
        size(UInt64(data.count))
        bytes.append(contentsOf: data)
    }

    /// A master element whose children `body` writes; its size in the fewest bytes, or in
    /// `sizeLength` at least.
    mutating func master(_ elementID: UInt32, sizeLength: Int = 1, _ body: (inout EBMLWriter) -> Void) {
        var inner = EBMLWriter()
        body(&inner)
        id(elementID)
        size(UInt64(inner.bytes.count), minLength: sizeLength)
        bytes.append(contentsOf: inner.bytes)
    }

    /// A Void element filling exactly `total` bytes (at least 2): header and zeros.
    mutating func void(total: Int) {
        precondition(total >= 2)
        id(MatroskaID.void)
        // one size byte covers up to 126 data bytes; beyond, a fixed 8-byte size
        if total - 2 <= 126 {
            size(UInt64(total - 2))
            bytes.append(contentsOf: repeatElement(0, count: total - 2))
        } else {
            size(UInt64(total - 9), minLength: 8)
            bytes.append(contentsOf: repeatElement(0, count: total - 9))
        }
    }

    /// A size field of exactly 8 bytes (a size patched later, or "unknown").
    static func size8(_ n: UInt64) -> [UInt8] {
        let marked = n | (UInt64(1) << 56)
        return (0..<8).map { UInt8((marked >> (8 * UInt64(7 - $0))) & 0xFF) }
    }

    /// The 8-byte "unknown size" (all value bits set): what a cluster and the segment hold until
    /// their sizes are patched at the end, so a file cut short still parses.
    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
}
