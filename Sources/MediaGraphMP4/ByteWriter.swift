/// Big-endian bytes for box bodies and headers. Boxes nest with `box(_:_:)`, which patches the
/// 32-bit size once the body is written, so no box size is computed by hand.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { bytes.append(UInt8(v >> 8)); bytes.append(UInt8(v & 0xFF)) }
    mutating func u24(_ v: UInt32) {
        bytes.append(UInt8((v >> 16) & 0xFF)); bytes.append(UInt8((v >> 8) & 0xFF)); bytes.append(UInt8(v & 0xFF))
    }
    mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(v >> 24)); bytes.append(UInt8((v >> 16) & 0xFF))
        bytes.append(UInt8((v >> 8) & 0xFF)); bytes.append(UInt8(v & 0xFF))
    }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func u64(_ v: UInt64) { u32(UInt32(v >> 32)); u32(UInt32(v & 0xFFFF_FFFF)) }
    mutating func i64(_ v: Int64) { u64(UInt64(bitPattern: v)) }
    mutating func zeros(_ n: Int) { bytes.append(contentsOf: repeatElement(0, count: n)) }
    mutating func append<C: Collection>(_ c: C) where C.Element == UInt8 { bytes.append(contentsOf: c) }

    /// Four ASCII characters (box types, brands, handler types).
    mutating func fourCC(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0.prefix(4)) }
    }

    /// Four ASCII characters known only at run time (a sample description type); other lengths
    /// are cut or padded with spaces.
    mutating func fourCC(text s: String) {
        let b = Array(s.utf8.prefix(4))
        bytes.append(contentsOf: b + Array(repeating: 0x20, count: 4 - b.count))
    }

    /// A box whose type is known only at run time.
    mutating func box(text type: String, _ body: (inout ByteWriter) -> Void) {
        let start = bytes.count
        u32(0)
        fourCC(text: type)
        body(&self)
        patchU32(at: start, UInt32(truncatingIfNeeded: bytes.count - start))
    }

    /// A box: size, type, then whatever `body` writes.
    mutating func box(_ type: StaticString, _ body: (inout ByteWriter) -> Void) {
        let start = bytes.count
        u32(0)
        fourCC(type)
        body(&self)
        patchU32(at: start, UInt32(truncatingIfNeeded: bytes.count - start))
    }

    /// A full box: a box whose body starts with a version byte and 24 bits of flags.
    mutating func fullBox(_ type: StaticString, version: UInt8, flags: UInt32, _ body: (inout ByteWriter) -> Void) {
        box(type) { w in
            w.u8(version)
            w.u24(flags)
            body(&w)
        }
    }

    mutating func patchU32(at offset: Int, _ v: UInt32) {
        bytes[offset] = UInt8(v >> 24)
        bytes[offset + 1] = UInt8((v >> 16) & 0xFF)
        bytes[offset + 2] = UInt8((v >> 8) & 0xFF)
        bytes[offset + 3] = UInt8(v & 0xFF)
    }
}
