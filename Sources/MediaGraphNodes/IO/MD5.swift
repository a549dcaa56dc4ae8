/// MD5 (RFC 1321), for frame hashes comparable with `ffmpeg -f framemd5`. Streaming: feed bytes
/// with `update`, read the digest with `finalize`.
struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476)
    private var pending = [UInt8](repeating: 0, count: 64)
    private var pendingCount = 0
    private var length: UInt64 = 0

    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    // floor(abs(sin(i + 1)) * 2^32)
    private static let table: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64((abs(sin(Double($0 + 1))) * 4294967296.0).rounded(.down))) }

    mutating func update(_ p: UnsafePointer<UInt8>, count: Int) {
        length &+= UInt64(count)
        var i = 0
        if pendingCount > 0 {
            let n = min(64 - pendingCount, count)
            for k in 0..<n { pending[pendingCount + k] = p[k] }
            pendingCount += n
            i = n
            if pendingCount == 64 {
                pending.withUnsafeBufferPointer { block($0.baseAddress!) }
                pendingCount = 0
            }
        }
        while i + 64 <= count {
            block(p + i)
            i += 64
        }
        for k in i..<count { pending[pendingCount] = p[k]; pendingCount += 1 }
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { update(b, count: $0.count) } }
    }

    mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (Int(length) + tail.count) % 64 != 56 { tail.append(0) }
        for k in 0..<8 { tail.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(k)))) }
        let saved = length
        update(tail)
        length = saved
        var out = ""
        for w in [state.0, state.1, state.2, state.3] {
            for k in 0..<4 {
                let b = UInt8(truncatingIfNeeded: w >> (8 * UInt32(k)))
                out += (b < 16 ? "0" : "") + String(b, radix: 16)
            }
        }
        return out
    }

    private mutating func block(_ p: UnsafePointer<UInt8>) {
        var m = [UInt32](repeating: 0, count: 16)
        for k in 0..<16 {
            m[k] = UInt32(p[4 * k]) | UInt32(p[4 * k + 1]) << 8 | UInt32(p[4 * k + 2]) << 16 | UInt32(p[4 * k + 3]) << 24
        }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            var g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            f = f &+ a &+ MD5.table[i] &+ m[g]
            a = d
            d = c
            c = b
            b = b &+ ((f << MD5.shifts[i]) | (f >> (32 - MD5.shifts[i])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}

import Foundation
