import Foundation
import Testing

/// Inputs with movie tags and chapters, made by ffmpeg in each test, and readers of what the
/// muxers wrote (EBML elements, ffprobe's tags and chapters) for the tags and chapters suites.
enum MovieTagsMedia {
    /// Tags with unicode, quotes and a track number pair (the mp4 suite's).
    static var tags: [(key: String, value: String)] { MP4TagsTests.tags }
    /// Two chapters (milliseconds), titles with quotes and unicode.
    static let chapters: [(start: Int, end: Int, title: String)] = [(0, 200, "Intro \"quoted\""), (200, 400, "Zwei wörter \u{1F30D}")]

    /// ffmpeg's `-metadata k=v` arguments for `tags`.
    static func metadataArgs(_ tags: [(key: String, value: String)]) -> [String] {
        tags.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
    }

    /// The tags as the graph's `metadata` object members.
    static func metadataJSON(_ tags: [(key: String, value: String)]) -> String {
        tags.map { "\"\($0.key)\": \"\($0.value.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ", ")
    }

    /// An ffmetadata file with `chapters`, for ffmpeg's `-map_chapters`.
    static func chaptersFile(in dir: String) -> String {
        var text = ";FFMETADATA1\n"
        for c in chapters { text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(c.start)\nEND=\(c.end)\ntitle=\(c.title)\n" }
        let path = dir + "/chapters.txt"
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// ffmpeg's file at `dir/name` from lavfi `input` encoded with `codec`, with every tag and
    /// both chapters (-fflags +bitexact).
    static func tagged(_ name: String, in dir: String, input: [String] = ["-f", "lavfi", "-i", "testsrc=size=64x48:d=0.4"],
                       codec: [String] = ["-c:v", "libx264"]) throws -> String {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y"] + input + ["-i", chaptersFile(in: dir), "-map", "0", "-map_chapters", "1"]
                            + codec + ["-fflags", "+bitexact"] + metadataArgs(tags) + [dir + "/" + name])
        try #require(r.status == 0, "\(r.stderr)")
        return dir + "/" + name
    }

    /// ffmpeg's file with every tag and both chapters, of H.264 video and AAC sound (its chapter
    /// track and chpl; `movflags` e.g. +disable_chpl).
    static func taggedWithSound(_ name: String, in dir: String, movflags: String? = nil) throws -> String {
        try tagged(name, in: dir, input: ["-f", "lavfi", "-i", "testsrc=size=64x48:d=0.4 [out0]; sine=d=0.4 [out1]"],
                   codec: ["-c:v", "libx264", "-c:a", "aac"] + (movflags.map { ["-movflags", $0] } ?? []))
    }

    /// Runs a graph file written from `json` in `dir`.
    static func run(_ json: String, in dir: String, name: String = "g.json") throws {
        let r = try CLI.mediagraph("run", "--quiet", CLI.writeGraph(json, in: dir, name: name))
        try #require(r.status == 0, "\(r.stderr)")
    }

    /// ffprobe's chapters: start and end (seconds) and title of each.
    static func probedChapters(_ path: String) throws -> [String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "chapter=start_time,end_time:chapter_tags=title", "-of", "csv=p=0", path])
        return r.out.split(separator: "\n").map(String.init)
    }

    /// ffmpeg decodes the whole file without a message.
    static func decodesSilently(_ path: String) throws -> Bool {
        let r = try CLI.run("ffmpeg", ["-v", "warning", "-i", path, "-f", "null", "-"])
        return r.status == 0 && r.stderr.isEmpty
    }

    /// The first element with ID `path.last` found by descending from the top level of a
    /// Matroska file along `path` (IDs as stored, e.g. 0x1853_8067 for the Segment), whole with
    /// its header; empty when there is none.
    static func ebml(_ file: String, _ path: [UInt32]) -> [UInt8] {
        let d = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        func vint(_ i: Int, keepMarker: Bool) -> (value: UInt64, length: Int)? {
            guard i < d.count, d[i] != 0 else { return nil }
            let n = d[i].leadingZeroBitCount + 1
            guard i + n <= d.count else { return nil }
            var v = UInt64(keepMarker ? d[i] : d[i] & (0xFF >> n))
            for k in 1..<n { v = v << 8 | UInt64(d[i + k]) }
            return (v, n)
        }
        var range = 0..<d.count
        var found: Range<Int>?
        for id in path {
            found = nil
            var i = range.lowerBound
            while i < range.upperBound, let (eid, n) = vint(i, keepMarker: true), let (size, m) = vint(i + n, keepMarker: false) {
                let end = min(range.upperBound, i + n + m + Int(clamping: size))
                if eid == UInt64(id) { found = i..<end; range = (i + n + m)..<end; break }
                i = end
            }
            guard found != nil else { return [] }
        }
        return found.map { Array(d[$0]) } ?? []
    }

    static let segment: UInt32 = 0x1853_8067, tagsID: UInt32 = 0x1254_C367, tag: UInt32 = 0x7373
    static let chaptersID: UInt32 = 0x1043_A770, editionEntry: UInt32 = 0x45B9
    /// The global Tag (first in Tags) and the EditionEntry of a Matroska file.
    static func movieTag(_ file: String) -> [UInt8] { ebml(file, [segment, tagsID, tag]) }
    static func edition(_ file: String) -> [UInt8] { ebml(file, [segment, chaptersID, editionEntry]) }
}
