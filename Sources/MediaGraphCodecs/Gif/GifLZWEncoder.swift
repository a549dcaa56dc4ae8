/// The LZW compressor of GIF image data (GIF89a appendix F): variable-length codes from
/// `minCodeSize + 1` up to 12 bits, packed least significant bit first, cut into data sub-blocks
/// of at most 255 bytes. A clear code starts the stream and follows every full code table.
///
/// The dictionary is a direct table indexed by `prefix * 256 + byte` (2 MiB, allocated once per
/// encoder); a clear resets only the entries that were used, so a frame costs one lookup per
/// pixel and no allocation.
public final class GifLZWEncoder {
    private static let maxCode = 4095
    /// `prefix * 256 + byte` → code, 0 when absent (real codes are never 0 there: they start
    /// after the clear and end-of-information codes).
    private let table: UnsafeMutablePointer<UInt16>
    /// The table slot of each assigned code, so a clear can undo exactly those.
    private let slotOfCode: UnsafeMutablePointer<Int32>

    public init() {
        table = .allocate(capacity: 4096 * 256)
        table.initialize(repeating: 0, count: 4096 * 256)
        slotOfCode = .allocate(capacity: 4096)
        slotOfCode.initialize(repeating: 0, count: 4096)
    }

    deinit {
        table.deallocate()
        slotOfCode.deallocate()
    }

    /// Appends the image data of one frame to `out`: the LZW minimum code size byte, the data
    /// sub-blocks and the zero-length block terminator. `indices` holds `width` bytes per row,
    /// `stride` apart; every index must be below `1 << minCodeSize` (2...8).
    public func encode(indices: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                       minCodeSize: Int, into out: inout [UInt8]) {
        out.append(UInt8(minCodeSize))
        var bits = BitPacker(takingFrom: &out)  // owns the bytes until it finishes (no copy)
        let clear = 1 << minCodeSize
        let endOfInformation = clear + 1
        var codeWidth = minCodeSize + 1
        var next = clear + 2
        bits.put(clear, codeWidth)

        var prefix = -1
        for y in 0..<height {
            let row = indices + y * stride
            for x in 0..<width {
                let byte = Int(row[x])
                if prefix < 0 { prefix = byte; continue }
                let slot = prefix &* 256 &+ byte
                let found = Int(table[slot])
                if found != 0 { prefix = found; continue }
                bits.put(prefix, codeWidth)
                // the new string gets the next code; when that code needs one more bit, the
                // decoder (one entry behind) widens before the next code it reads
                table[slot] = UInt16(next)
                slotOfCode[next] = Int32(slot)
                if next >= 1 << codeWidth { codeWidth += 1 }
                if next == Self.maxCode {
                    bits.put(clear, codeWidth)
                    for c in (clear + 2)...next { table[Int(slotOfCode[c])] = 0 }
                    next = clear + 2
                    codeWidth = minCodeSize + 1
                } else {
                    next += 1
                }
                prefix = byte
            }
        }
        if prefix >= 0 { bits.put(prefix, codeWidth) }
        // the decoder adds one more entry after the last code: it may read one bit more
        if next >= 1 << codeWidth && codeWidth < 12 { codeWidth += 1 }
        bits.put(endOfInformation, codeWidth)
        var c = clear + 2
        while c < next { table[Int(slotOfCode[c])] = 0; c += 1 }
        bits.finish(into: &out)
    }
}

/// Packs codes LSB first into GIF data sub-blocks (a length byte, then up to 255 bytes).
private struct BitPacker {
    var out: [UInt8]
    var accumulator: UInt64 = 0
    var count = 0
    var blockStart: Int

    init(takingFrom bytes: inout [UInt8]) {
        out = []
        swap(&out, &bytes)
        blockStart = out.count
        out.append(0)  // length of the first sub-block, filled in when it closes
    }

    @inline(__always) mutating func put(_ code: Int, _ width: Int) {
        accumulator |= UInt64(code) << UInt64(count)
        count += width
        while count >= 8 {
            appendByte(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    @inline(__always) mutating func appendByte(_ b: UInt8) {
        if out.count - blockStart - 1 == 255 {
            out[blockStart] = 255
            blockStart = out.count
            out.append(0)
        }
        out.append(b)
    }

    mutating func finish(into bytes: inout [UInt8]) {
        if count > 0 { appendByte(UInt8(truncatingIfNeeded: accumulator)) }
        let length = out.count - blockStart - 1
        if length == 0 {
            out[blockStart] = 0  // the empty block is the terminator
        } else {
            out[blockStart] = UInt8(length)
            out.append(0)
        }
        swap(&out, &bytes)
    }
}
