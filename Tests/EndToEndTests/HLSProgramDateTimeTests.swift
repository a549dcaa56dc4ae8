#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `program-date-time` against ffmpeg's `-hls_flags program_date_time` over the same packets,
/// with MPEG-TS and fMP4 segments, in a zone 5:30 east of UTC (both take local time). The two
/// runs start at different moments, so the test compares what does not depend on the moment:
/// where the tags stand, their format, the zone, the steps from one to the next, and that each
/// run's first is a moment while the run was starting.
@Suite struct HLSProgramDateTimeTests {
    static let zone = ["TZ": "XST-5:30"]

    /// `#EXT-X-PROGRAM-DATE-TIME:2026-11-28T19:35:24.000+0530` → milliseconds since 1970 and the zone text.
    static func parse(_ line: String) -> (ms: Int64, zone: String)? {
        guard let m = line.wholeMatch(of: /#EXT-X-PROGRAM-DATE-TIME:(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})([+-])(\d\d)(\d\d)/) else { return nil }
        var t = tm()
        t.tm_year = Int32(m.1)! - 1900
        t.tm_mon = Int32(m.2)! - 1
        t.tm_mday = Int32(m.3)!
        t.tm_hour = Int32(m.4)!
        t.tm_min = Int32(m.5)!
        t.tm_sec = Int32(m.6)!
        let offset = (Int64(m.9)! * 60 + Int64(m.10)!) * 60 * (m.8 == "+" ? 1 : -1)
        return ((Int64(timegm(&t)) - offset) * 1000 + Int64(m.7)!, String(line.suffix(5)))
    }

    /// The tags of a playlist, checking each stands between an #EXTINF and its URI.
    static func tags(_ lines: [String]) -> [(ms: Int64, zone: String)] {
        var out: [(Int64, String)] = []
        for (k, line) in lines.enumerated() where line.hasPrefix("#EXT-X-PROGRAM-DATE-TIME:") {
            #expect(k > 0 && lines[k - 1].hasPrefix("#EXTINF:") && !lines[k + 1].hasPrefix("#"), "\(lines)")
            guard let t = parse(line) else {
                Issue.record("not ffmpeg's format: \(line)")
                continue
            }
            out.append(t)
        }
        return out
    }

    @Test(arguments: ["mpegts", "fmp4"])
    func tagsAreFFmpegs(_ segmentType: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 210 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 45 } },
                     "tone": { "type": "sine", "params": { "seconds": 7 } },
                     "aenc": { "type": "aac" },
                     "mp4": { "type": "mp4", "params": { "path": "ours.mp4" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8", "segment-type": "\(segmentType)", "program-date-time": true } } },
          "chains": [["src", "venc", "hls.video"], ["venc", "mp4.video"], ["tone", "aenc", "hls.audio"], ["aenc", "mp4.audio"]] }
        """, in: dir)
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        let r = try CLI.run(CLI.binary, ["run", "--quiet", g], cwd: CLI.root, environment: Self.zone)
        let after = Int64(Date().timeIntervalSince1970 * 1000) + 1
        #expect(r.status == 0, "\(r.stderr)")
        let ext = segmentType == "fmp4" ? "m4s" : "ts"
        let f = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.mp4", "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                                       "-hls_segment_type", segmentType, "-hls_flags", "program_date_time",
                                       "-hls_segment_filename", dir + "/ref%d.\(ext)", dir + "/ref.m3u8"], environment: Self.zone)
        #expect(f.status == 0 && f.stderr.isEmpty, "\(f.stderr)")
        let oursLines = try HLSSinkTests.lines(dir + "/out.m3u8"), theirLines = try HLSSinkTests.lines(dir + "/ref.m3u8")
        let ours = Self.tags(oursLines), theirs = Self.tags(theirLines)
        #expect(ours.count == HLSSinkTests.segments(oursLines).count && ours.count == theirs.count && ours.count > 2, "\(oursLines)\n\(theirLines)")
        #expect(Set(ours.map(\.zone)) == ["+0530"] && Set(theirs.map(\.zone)) == ["+0530"], "\(oursLines)\n\(theirLines)")
        let steps = { (t: [(ms: Int64, zone: String)]) in zip(t.dropFirst(), t).map { $0.ms - $1.ms } }
        #expect(steps(ours) == steps(theirs), "ours \(steps(ours)), ffmpeg's \(steps(theirs))")
        #expect(ours.first.map { $0.ms >= before && $0.ms <= after } == true, "\(ours.first?.ms ?? 0) not in \(before)…\(after)")
    }
}
