import MediaGraphCore

/// The `roll` sample group (ISO/IEC 14496-12 10.1: sgpd + sbgp in stbl) that ffmpeg's movenc
/// writes for AAC and Opus: how many samples before a sample a decoder has to start for that
/// sample to come out right, which players use when they seek. AAC: every sample rolls back one.
/// Opus: 80 ms of pre-roll (Opus in ISOBMFF 4.4), counted in whole preceding samples; samples with
/// less than 80 ms before them belong to no group.
struct RollGroups {
    /// Runs of consecutive samples: how many, and their group (1-based; 0 = none).
    private(set) var runs: [(count: UInt32, group: UInt32)] = []
    /// The roll distance of each group, negative (samples back).
    private(set) var distances: [Int16] = []

    /// Opus packets are at most 120 ms; ffmpeg gives up beyond this many samples of pre-roll.
    static let maximumOpusDistance = 32

    init?(codec: Codec, timescale: Int64, table: SampleTable) {
        guard table.count > 0 else { return nil }
        if codec == .aac {
            runs = [(UInt32(table.count), 1)]
            distances = [-1]
        } else if codec == .opus {
            guard opus(table, timescale: timescale) else { return nil }
        } else {
            return nil
        }
    }

    /// Groups for Opus: each sample's distance is the fewest preceding samples that last 80 ms.
    private mutating func opus(_ table: SampleTable, timescale: Int64) -> Bool {
        var durations: [Int64] = []
        durations.reserveCapacity(table.count)
        for r in table.timeRuns { durations.append(contentsOf: repeatElement(Int64(r.delta), count: Int(r.count))) }
        let preroll = timescale * 80 / 1000
        var lastDistance = -1
        for i in 0..<durations.count {
            var remaining = preroll
            var distance = 0
            var j = i - 1
            while j >= 0 && remaining > 0 && distance <= Self.maximumOpusDistance {
                remaining -= durations[j]
                distance += 1
                j -= 1
            }
            if remaining > 0 { distance = 0 }
            if distance > Self.maximumOpusDistance { return false }
            if distance == lastDistance {
                runs[runs.count - 1].count += 1
            } else {
                if distance > 0 { distances.append(Int16(-distance)) }
                runs.append((1, distance > 0 ? UInt32(distances.count) : 0))
                lastDistance = distance
            }
        }
        return !distances.isEmpty
    }

    func write(_ w: inout ByteWriter) {
        w.fullBox("sgpd", version: 1, flags: 0) { w in
            w.fourCC("roll")
            w.u32(2) // default_length: one int16 per entry
            w.u32(UInt32(distances.count))
            for d in distances { w.u16(UInt16(bitPattern: d)) }
        }
        w.fullBox("sbgp", version: 0, flags: 0) { w in
            w.fourCC("roll")
            w.u32(UInt32(runs.count))
            for r in runs { w.u32(r.count); w.u32(r.group) }
        }
    }
}
