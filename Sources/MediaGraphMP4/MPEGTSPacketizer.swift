/// Cuts PSI sections and PES packets into 188-byte transport packets the way ffmpeg's mpegts
/// muxer does (libavformat/mpegtsenc.c: mpegts_write_section, mpegts_write_pes), appending them
/// to `bytes`: continuity counters per PID, the adaptation field with the random access
/// indicator and the PCR, stuffing in the adaptation field of a PES's last packet.
struct MPEGTSPacketizer {
    static let packetSize = 188
    /// What has been cut and not yet taken by the writer.
    var bytes: [UInt8] = []
    /// Packets cut so far, all PIDs.
    private(set) var packetCount = 0
    /// A packet's header, adaptation field and PES header while it is assembled (reused).
    private var header = [UInt8](repeating: 0, count: 4 + 1 + 1 + 6 + 19)

    init() { bytes.reserveCapacity(1 << 20) }

    /// A section in packets of `pid` (pointer field 0 in the first, 0xFF after the section).
    mutating func appendSection(_ section: [UInt8], pid: UInt16, counter: inout UInt8) {
        var offset = 0
        while offset < section.count {
            let first = offset == 0
            counter = (counter + 1) & 0xF
            bytes.append(0x47)
            bytes.append(UInt8(pid >> 8) | (first ? 0x40 : 0))
            bytes.append(UInt8(pid & 0xFF))
            bytes.append(0x10 | counter)
            var room = Self.packetSize - 4
            if first { bytes.append(0); room -= 1 }
            let n = min(room, section.count - offset)
            bytes.append(contentsOf: section[offset..<(offset + n)])
            if n < room { bytes.append(contentsOf: repeatElement(0xFF, count: room - n)) }
            offset += n
            packetCount += 1
        }
    }

    /// What the first packet of a PES carries besides its payload.
    struct PESStart {
        var pid: UInt16
        var streamID: UInt8
        /// 90 kHz, already 33-bit wrapped by the writer's arithmetic (only the low 33 bits are written).
        var pts: Int64
        var dts: Int64
        var randomAccess: Bool
        /// In 27 MHz units.
        var pcr: Int64?
        /// Video PES packets say 0 (unbounded), as ffmpeg writes them by default.
        var unboundedLength: Bool
    }

    /// One PES packet (header from `start`, then `payload`) in as many transport packets as
    /// it takes; `counter` is its PID's continuity counter.
    mutating func appendPES(_ start: PESStart, payload: UnsafeRawBufferPointer, counter: inout UInt8) {
        var remaining = payload.count
        var offset = 0
        var isStart = true
        while remaining > 0 {
            // header: TS header, adaptation field (flags, PCR), PES header
            var n = 0
            counter = (counter + 1) & 0xF
            header[0] = 0x47
            header[1] = UInt8(start.pid >> 8) | (isStart ? 0x40 : 0)
            header[2] = UInt8(start.pid & 0xFF)
            header[3] = 0x10 | counter
            n = 4
            var hasAdaptation = false
            if isStart && (start.randomAccess || start.pcr != nil) {
                hasAdaptation = true
                header[3] |= 0x20
                header[4] = 1
                header[5] = (start.randomAccess ? 0x40 : 0)
                n = 6
                if let pcr = start.pcr {
                    header[5] |= 0x10
                    let base = pcr / 300, ext = pcr % 300
                    header[6] = UInt8(truncatingIfNeeded: base >> 25)
                    header[7] = UInt8(truncatingIfNeeded: base >> 17)
                    header[8] = UInt8(truncatingIfNeeded: base >> 9)
                    header[9] = UInt8(truncatingIfNeeded: base >> 1)
                    header[10] = UInt8(truncatingIfNeeded: base << 7 | ext >> 8 | 0x7E)
                    header[11] = UInt8(truncatingIfNeeded: ext)
                    header[4] += 6
                    n = 12
                }
            }
            let adaptationEnd = n
            if isStart {
                let both = start.dts != start.pts
                let headerLength = both ? 10 : 5
                header[n] = 0; header[n + 1] = 0; header[n + 2] = 1; header[n + 3] = start.streamID
                var length = payload.count + headerLength + 3
                if length > 0xFFFF || start.unboundedLength { length = 0 }
                header[n + 4] = UInt8(length >> 8)
                header[n + 5] = UInt8(length & 0xFF)
                header[n + 6] = 0x80
                header[n + 7] = both ? 0xC0 : 0x80
                header[n + 8] = UInt8(headerLength)
                n += 9
                Self.putTimestamp(&header, at: n, marker: both ? 3 : 2, start.pts)
                n += 5
                if both {
                    Self.putTimestamp(&header, at: n, marker: 1, start.dts)
                    n += 5
                }
            }
            let take = min(Self.packetSize - n, remaining)
            let stuffing = Self.packetSize - n - take
            // the adaptation field grows by the stuffing, before the PES header
            bytes.append(contentsOf: header[0..<4])
            if stuffing > 0 {
                if hasAdaptation {
                    let afBytes = header[4...].prefix(adaptationEnd - 4)
                    bytes.append(header[4] + UInt8(stuffing))
                    bytes.append(contentsOf: afBytes.dropFirst())
                    bytes.append(contentsOf: repeatElement(0xFF, count: stuffing))
                } else {
                    bytes[bytes.count - 1] |= 0x20
                    bytes.append(UInt8(stuffing - 1))
                    if stuffing >= 2 {
                        bytes.append(0)
                        bytes.append(contentsOf: repeatElement(0xFF, count: stuffing - 2))
                    }
                }
            } else {
                bytes.append(contentsOf: header[4..<adaptationEnd])
            }
            bytes.append(contentsOf: header[adaptationEnd..<n])
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[offset..<(offset + take)]))
            offset += take
            remaining -= take
            isStart = false
            packetCount += 1
        }
    }

    /// A 33-bit PTS/DTS in 5 bytes with its 4-bit prefix and marker bits.
    static func putTimestamp(_ d: inout [UInt8], at i: Int, marker: UInt8, _ t: Int64) {
        d[i] = marker << 4 | UInt8(truncatingIfNeeded: (t >> 30) & 7) << 1 | 1
        let mid = UInt16(truncatingIfNeeded: (t >> 15) & 0x7FFF) << 1 | 1
        d[i + 1] = UInt8(mid >> 8); d[i + 2] = UInt8(mid & 0xFF)
        let low = UInt16(truncatingIfNeeded: t & 0x7FFF) << 1 | 1
        d[i + 3] = UInt8(low >> 8); d[i + 4] = UInt8(low & 0xFF)
    }
}
