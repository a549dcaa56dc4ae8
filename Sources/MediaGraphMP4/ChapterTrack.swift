import MediaGraphCore

/// The QuickTime chapter track: a disabled `text` track with one sample per titled chapter,
/// which QuickTime, Safari, Apple's players and VLC read chapters from (they ignore `chpl`).
/// ffmpeg 5.1's mov muxer writes it beside `chpl` in MP4, iPod (.m4a/.m4v) and QuickTime
/// movies, and the timing here is what it writes:
/// - times in milliseconds (its track timescale 1000), rounded as av_rescale_q rounds;
/// - a chapter without a title has no sample (the one before it lasts until the next);
/// - the first sample is moved to time 0 (its duration grows by as much); the last one's stts
///   duration still runs from its own start to its end counted from 0, as its muxer counts it,
///   so a single chapter from 100 to 300 ms has an stts of 300 and an mdhd of 200;
/// - a chapter that starts before the previous sample is moved to 1 ms after it, and one whose
///   end is before its start, or more than 2^31 − 1 ms after it, gets no sample (nor, here, one
///   that starts more than 2^50 ms, about 35 000 years, from 0).
/// The samples are the first bytes of mdat, one chunk while it stays under 1 MiB.
struct ChapterTrack {
    /// ffmpeg's timescale for the track (MOV_TIMESCALE).
    static let timescale: Int64 = 1000
    /// A sample holds the title's length in 16 bits.
    static let maxTitleBytes = 0xFFFF

    struct Sample {
        var dts: Int64
        var bytes: [UInt8]
    }

    private(set) var samples: [Sample] = []
    /// stts deltas, one per sample.
    private(set) var deltas: [Int64] = []
    /// The track's length as ffmpeg's muxer counts it (its track_duration): from 0 to the end of
    /// the last sample at its own, unmoved time.
    private(set) var countedDuration: Int64 = 0
    /// The latest end of a sample (mdhd and edit duration).
    private(set) var presentedDuration: Int64 = 0

    /// nil when no chapter has a title (ffmpeg then writes a `tref` to a track it leaves out,
    /// which readers warn about; no track and no reference are written here).
    init?(_ chapters: [Chapter]) {
        for c in chapters {
            guard let title = c.title else { continue }
            let start = c.rescaled(c.start, to: Self.timescale) ?? 0
            let end = c.rescaled(c.end, to: Self.timescale) ?? start
            let (duration, overflow) = end.subtractingReportingOverflow(start)
            guard !overflow, duration >= 0, duration <= Int64(Int32.max), start.magnitude <= 1 << 50 else { continue }
            // the packet time ffmpeg keeps (its track duration counts from it)
            var dts = start
            if let previous = samples.last?.dts, dts < previous || dts - previous >= Int64(Int32.max) { dts = previous + 1 }
            samples.append(Sample(dts: samples.isEmpty ? 0 : dts, bytes: Self.payload(title)))
            presentedDuration = max(presentedDuration, samples[samples.count - 1].dts + duration)
            countedDuration = dts + duration
        }
        guard !samples.isEmpty else { return nil }
        for i in samples.indices {
            deltas.append(i + 1 < samples.count ? samples[i + 1].dts - samples[i].dts : countedDuration - samples[i].dts)
        }
    }

    /// The title's length (16 bits) and UTF-8, then an `encd` atom saying UTF-8 (0x100), as
    /// QuickTime text samples carry it. A title is cut to 65535 bytes at a character boundary.
    static func payload(_ title: String) -> [UInt8] {
        let text = QuickTimeUserData.utf8Prefix(Array(title.utf8), limit: maxTitleBytes)
        var w = ByteWriter()
        w.u16(UInt16(text.count))
        w.append(text)
        w.u32(12); w.fourCC("encd"); w.u32(0x100)
        return w.bytes
    }

    var totalBytes: Int { samples.reduce(0) { $0 + $1.bytes.count } }

    /// Sample counts per chunk: consecutive samples share a chunk while it stays under 1 MiB,
    /// as ffmpeg merges a run of contiguous samples.
    var chunkSampleCounts: [Int] {
        var counts: [Int] = [], size = 0
        for s in samples {
            if counts.isEmpty || size + s.bytes.count >= 1 << 20 {
                counts.append(1); size = s.bytes.count
            } else {
                counts[counts.count - 1] += 1; size += s.bytes.count
            }
        }
        return counts
    }

    /// Bits per second as ffmpeg's btrt states it (bytes × 8 × timescale / its track duration).
    var averageBitrate: UInt32 {
        countedDuration > 0 ? UInt32(truncatingIfNeeded: UInt64(totalBytes) * 8 * UInt64(Self.timescale) / UInt64(countedDuration)) : 0
    }
}
