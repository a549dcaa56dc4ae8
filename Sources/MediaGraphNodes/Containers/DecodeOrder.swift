/// How the muxers (`mp4`, `matroska`) read their inputs: in decode-time order, so tracks
/// interleave on disk without holding media in memory.
enum DecodeOrder {
    /// The input whose last packet is earliest in decode time (one without packets first), among
    /// those that have not ended; nil when all have.
    static func earliest(lastDTS: [Double], ended: [Bool]) -> Int? {
        var best: Int?
        for k in 0..<lastDTS.count where !ended[k] {
            if best == nil || lastDTS[k] < lastDTS[best!] { best = k }
        }
        return best
    }
}
