import MediaGraphCore

/// Whether the variants' segments start at the same times, which a player switching variants
/// relies on; they do when the encoders' key frames do (Docs/hls.md, segment alignment).
extension HLSLadderWriter {
    /// Where a variant's segments first start at another time than the first variant's (more
    /// than 1 ms apart), as a warning saying what to do; nil when they all align.
    public var misalignment: String? {
        let videos = renditions.filter(\.isVideo).sorted { $0.spec.position < $1.spec.position }
        guard let first = videos.first else { return nil }
        let reference = Self.starts(first.files.playlist)
        for v in videos.dropFirst() {
            let starts = Self.starts(v.files.playlist)
            let port = v.spec.names.port, firstPort = first.spec.names.port
            let advice = "give their encoders the same keyint and min-keyint and no scene-cut key frames (x264-params or x265-params scenecut=0)"
            if let k = starts.indices.first(where: { $0 < reference.count && abs(starts[$0] - reference[$0]) > 1000 }) {
                return "the segments of '\(port)' do not start where those of '\(firstPort)' do (segment \(k) starts at \(Self.seconds(starts[k])) s, not \(Self.seconds(reference[k])) s): a player switching variants there may stall or fetch media twice; " + advice
            }
            if starts.count != reference.count {
                return "'\(port)' has \(starts.count) segments and '\(firstPort)' \(reference.count), so their segments do not all start at the same times: a player switching variants may stall or fetch media twice; " + advice
            }
        }
        return nil
    }

    /// Each segment's start, microseconds from the playlist's start (the sum of the #EXTINF before it).
    static func starts(_ p: HLSPlaylist) -> [Int64] {
        var t: Int64 = 0
        return p.segments.map { s in
            defer { t += HLSPlaylist.microseconds(s.duration) }
            return t
        }
    }

    /// Microseconds as seconds with three decimals.
    static func seconds(_ micro: Int64) -> String {
        let ms = (micro + 500) / 1000
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
