import MediaGraphCore

/// The bit rates RFC 8216 section 4.1 defines for a media playlist, which a master playlist's
/// BANDWIDTH and AVERAGE-BANDWIDTH state. A segment's bit rate is its file's size over its
/// #EXTINF duration (container overhead in, the init segment out). Durations are taken as the
/// playlist writes them (microseconds), so a reader of the playlist and the segment files finds
/// the same numbers; rates are rounded up, so a player budgeting by them is never short.
extension HLSPlaylist {
    /// The peak segment bit rate: the largest bit rate of any run of consecutive segments
    /// lasting 0.5 to 1.5 times the target duration. When no run fits (a single segment shorter
    /// than half the target), the largest single segment's. nil without segments.
    public var peakBitRate: Int? {
        let durations = segments.map { Self.microseconds($0.duration) }
        let low = targetDuration * 500_000, high = targetDuration * 1_500_000
        var peak: Int?
        for start in segments.indices {
            var bytes = 0, length: Int64 = 0
            for k in start..<segments.count {
                bytes += segments[k].bytes
                length += durations[k]
                if length > high { break }
                if length >= low, let rate = Self.bitRate(bytes: bytes, microseconds: length) { peak = max(peak ?? 0, rate) }
            }
        }
        if peak != nil { return peak }
        return segments.indices.compactMap { Self.bitRate(bytes: segments[$0].bytes, microseconds: durations[$0]) }.max()
    }

    /// The average segment bit rate: all segments' bits over the playlist's duration; nil without
    /// segments.
    public var averageBitRate: Int? {
        Self.bitRate(bytes: segments.reduce(0) { $0 + $1.bytes },
                     microseconds: segments.reduce(0) { $0 + Self.microseconds($1.duration) })
    }

    /// A duration as #EXTINF states it, in microseconds.
    static func microseconds(_ t: MediaTime) -> Int64 { Int64((t.seconds * 1_000_000).rounded()) }

    /// Bits per second, rounded up; nil for no time.
    static func bitRate(bytes: Int, microseconds: Int64) -> Int? {
        guard microseconds > 0 else { return nil }
        let bits = Int64(bytes) * 8_000_000
        return Int((bits + microseconds - 1) / microseconds)
    }
}
