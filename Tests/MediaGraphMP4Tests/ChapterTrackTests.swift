import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Chapters a hostile or careless file can bring (times at the ends of 64 bits, ends before
/// starts, chapters out of order, no title, a title longer than a 16-bit length holds) give a
/// complete file in every layout, whose chapter track ffprobe reads without an error (it warns
/// that it has no decoder for the text track, as for ffmpeg's own files): the
/// long title cut at 65535 bytes on a character boundary.
@Suite struct ChapterTrackTests {
    static let longTitle = String(repeating: "\u{1F30D}", count: 17_500) // 70 000 bytes of UTF-8

    static let chapters: [Chapter] = [
        Chapter(start: 0, end: 500, timeBase: Rational(1, 1000), title: longTitle),
        Chapter(start: 500, end: 400, timeBase: Rational(1, 1000), title: "ends before it starts"),
        Chapter(start: 300, end: 700, timeBase: Rational(1, 1000), title: "out of order"),
        Chapter(start: 700, end: 800, timeBase: Rational(1, 1000), title: nil),
        Chapter(start: .max, end: .max, timeBase: Rational(1, 1), title: "beyond 64 bits"),
        Chapter(start: .min, end: 0, timeBase: Rational(1, 1), title: "before 64 bits"),
        Chapter(start: 800, end: 1000, timeBase: Rational(1, 1000), title: "last"),
    ]

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func hostileChaptersGiveAReadableFile(_ fragmented: Bool, _ quickTime: Bool) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        var options = MP4MuxerOptions(fragmented: fragmented)
        options.quickTime = quickTime
        options.chapters = Self.chapters
        let out = dir.file(quickTime ? "out.mov" : "out.mp4")
        let muxer = try MP4Muxer(path: out, options: options)
        _ = try Media.mux(video: src.h264, audio: src.adts, to: muxer)
        let r = try run("ffprobe", ["-v", "error", "-show_entries", "chapter=start_time:chapter_tags=title", "-of", "csv=p=0", out])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let titles = r.stdout.split(separator: "\n").map { $0.split(separator: ",", maxSplits: 1).last.map(String.init) ?? "" }
        let cut = String(repeating: "\u{1F30D}", count: 65_532 / 4)
        #expect(titles.first == cut, "first title: \(titles.first?.utf8.count ?? 0) bytes")
        #expect(titles.contains("out of order") && titles.contains("last"), "\(titles.map { $0.prefix(30) })")
        #expect(try decodeErrors(out) == "")
    }
}
