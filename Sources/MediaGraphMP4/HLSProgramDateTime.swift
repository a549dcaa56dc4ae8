#if canImport(Glibc)
import Glibc
#endif

/// `#EXT-X-PROGRAM-DATE-TIME` (RFC 8216 4.3.2.6) as ffmpeg's `-hls_flags program_date_time`
/// writes it: the segment's first sample as a wall-clock time, local time with milliseconds and
/// the zone's offset, `2026-11-28T14:05:24.000+0000` (hlsplaylist.c: strftime of localtime_r,
/// the milliseconds rounded, `%z`).
public enum HLSProgramDateTime {
    /// The wall clock now, to the microsecond, as ffmpeg takes it (av_gettime) when it opens the output.
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec / 1000) / 1e6
    }

    /// The tag for a time in seconds since 1970.
    public static func line(_ seconds: Double) -> String {
        var whole = time_t(seconds.rounded(.towardZero))
        let milli = min(999, max(0, Int((1000 * (seconds - Double(whole))).rounded(.toNearestOrEven))))
        var parts = tm()
        localtime_r(&whole, &parts)
        let date = format("%Y-%m-%dT%H:%M:%S", &parts)
        let zone = format("%z", &parts)
        let ms = String(milli)
        return "#EXT-X-PROGRAM-DATE-TIME:" + date + "." + String(repeating: "0", count: 3 - ms.count) + ms + zone
    }

    private static func format(_ pattern: String, _ parts: inout tm) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, pattern, &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
