#if canImport(Glibc)
import Glibc
#endif
/// NAL unit framing: Annex B byte streams (start codes 00 00 01 / 00 00 00 01) and the 4-byte
/// length-prefixed form that MP4 samples use.
public enum NALUnits {
    /// Offset of the first byte after the next 3-byte start code at or after `from`, and the
    /// offset where that start code (with a leading zero of a 4-byte code) begins; nil if none.
    /// libc's memchr (vectorised) finds each 0x01 byte; a start code is one after two zeros.
    @inline(__always)
    static func nextStartCode(_ p: UnsafePointer<UInt8>, from: Int, end: Int) -> (codeStart: Int, payload: Int)? {
        var i = from + 2
        while i < end {
            guard let hit = memchr(p + i, 1, end - i) else { return nil }
            let j = i + UnsafeRawPointer(p + i).distance(to: UnsafeRawPointer(hit))
            if p[j - 1] == 0 && p[j - 2] == 0 {
                let start = (j - 3 >= from && p[j - 3] == 0) ? j - 3 : j - 2
                return (start, j + 1)
            }
            i = j + 1
        }
        return nil
    }

    /// Payload ranges (NAL header included, start codes and trailing zeros excluded) of every
    /// NAL unit in an Annex B buffer.
    public static func annexBRanges(_ data: UnsafeRawBufferPointer) -> [Range<Int>] {
        var out: [Range<Int>] = []
        forEachAnnexB(data) { out.append($0) }
        return out
    }

    static func forEachAnnexB(_ data: UnsafeRawBufferPointer, _ body: (Range<Int>) -> Void) {
        guard let base = data.baseAddress, data.count >= 3 else { return }
        let p = base.assumingMemoryBound(to: UInt8.self)
        let end = data.count
        guard var current = nextStartCode(p, from: 0, end: end)?.payload else { return }
        while true {
            let next = nextStartCode(p, from: current, end: end)
            var stop = next?.codeStart ?? end
            while stop > current && p[stop - 1] == 0 { stop -= 1 } // trailing_zero_8bits
            if stop > current { body(current..<stop) }
            guard let n = next else { return }
            current = n.payload
        }
    }

    /// Whether the buffer starts with an Annex B start code rather than a valid sequence of
    /// 4-byte lengths covering it exactly.
    public static func looksLikeAnnexB(_ data: UnsafeRawBufferPointer) -> Bool {
        guard data.count >= 4 else { return false }
        let startsWithCode = (data[0] == 0 && data[1] == 0 && data[2] == 1)
            || (data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] == 1)
        if !startsWithCode { return false }
        return !isLengthPrefixed(data)
    }

    /// Whether 4-byte big-endian lengths walk exactly to the end of the buffer.
    public static func isLengthPrefixed(_ data: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 4 <= data.count {
            let n = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            if n == 0 { return false }
            i += 4 + n
        }
        return i == data.count
    }

    /// Ranges of NAL units in a 4-byte length-prefixed buffer; nil when the lengths do not fit.
    public static func lengthPrefixedRanges(_ data: UnsafeRawBufferPointer) -> [Range<Int>]? {
        var out: [Range<Int>] = []
        var i = 0
        while i + 4 <= data.count {
            let n = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            if i + 4 + n > data.count { return nil }
            out.append((i + 4)..<(i + 4 + n))
            i += 4 + n
        }
        return i == data.count ? out : nil
    }

    /// NAL unit type of an H.264 NAL (low 5 bits of the header byte).
    @inline(__always) public static func h264Type(_ header: UInt8) -> UInt8 { header & 0x1F }
    /// NAL unit type of an HEVC NAL (bits 1…6 of the first header byte).
    @inline(__always) public static func hevcType(_ header: UInt8) -> UInt8 { (header >> 1) & 0x3F }

    /// Whether a NAL of `codec` travels out of band in MP4 (parameter sets) or is dropped (AUD).
    @inline(__always)
    static func isOutOfBand(_ header: UInt8, codec: Codec) -> Bool {
        if codec == .h264 {
            let t = h264Type(header)
            return t == 7 || t == 8 || t == 9 || t == 13 || t == 15
        } else {
            let t = hevcType(header)
            return t == 32 || t == 33 || t == 34 || t == 35
        }
    }

    /// RBSP of a NAL payload: emulation prevention bytes (00 00 03) removed, up to `limit` bytes.
    public static func rbsp<C: Collection>(_ nal: C, limit: Int = .max) -> [UInt8] where C.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(nal.count, limit))
        var zeros = 0
        for b in nal {
            if out.count >= limit { break }
            if zeros >= 2 && b == 3 { zeros = 0; continue }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }
}

import MediaGraphCore
