#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Live HLS playlists (`playlist-type: live`, `list-size`, `delete-segments`) against ffmpeg's
/// own `-f hls -hls_list_size N [-hls_flags delete_segments]` over the same packets: the same
/// window, media sequence and durations, the same segment files left in the folder; and, while
/// a long job runs, a playlist that never lists a file that is not there.
@Suite struct HLSLiveWindowTests {
    /// The playlist's lines without #EXT-X-INDEPENDENT-SEGMENTS (which ours states and ffmpeg's
    /// writes only when asked) and with segment URIs renamed from `prefix` to `ref`.
    static func comparable(_ playlist: String, prefix: String) throws -> [String] {
        try HLSSinkTests.lines(playlist).filter { $0 != "#EXT-X-INDEPENDENT-SEGMENTS" }.map {
            $0.hasPrefix(prefix) && !$0.hasPrefix("#") ? "ref" + $0.dropFirst(prefix.count) : $0
        }
    }

    /// Segment numbers of the files named `<prefix>N.<ext>` in dir.
    static func segmentNumbers(in dir: String, prefix: String, ext: String) throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: dir).compactMap { name -> Int? in
            guard name.hasPrefix(prefix), name.hasSuffix("." + ext) else { return nil }
            return Int(name.dropFirst(prefix.count).dropLast(ext.count + 1))
        }.sorted()
    }

    /// 15 s in 2 s MPEG-TS segments (8 of them), the last 3 listed: the playlist is ffmpeg's
    /// (MEDIA-SEQUENCE 5, no playlist type, ENDLIST), the listed segments are ffmpeg's byte for
    /// byte, and the files left are ffmpeg's: with delete-segments the 3 listed and the one that
    /// left last, without it all 8.
    @Test(arguments: [true, false])
    func windowAndRemovedFilesAreFFmpegs(_ delete: Bool) throws {
        let dir = CLI.tempDir()
        let r = try HLSTransportStreamTests.encode(in: dir, frames: 450, keyint: 30,
                                                   params: #", "playlist-type": "live", "list-size": 3, "delete-segments": \#(delete)"#)
        #expect(r.status == 0, "\(r.stderr)")
        var args = ["-v", "error", "-i", dir + "/ours.mp4", "-c", "copy", "-f", "hls", "-hls_time", "2", "-hls_list_size", "3"]
        if delete { args += ["-hls_flags", "delete_segments"] }
        let f = try CLI.run("ffmpeg", args + ["-hls_segment_filename", dir + "/ref%d.ts", dir + "/ref.m3u8"])
        #expect(f.status == 0 && f.stderr.isEmpty, "\(f.stderr)")
        let ours = try Self.comparable(dir + "/out.m3u8", prefix: "out"), theirs = try HLSSinkTests.lines(dir + "/ref.m3u8")
        #expect(ours == theirs, "ours:\n\(ours.joined(separator: "\n"))\nffmpeg's:\n\(theirs.joined(separator: "\n"))")
        #expect(ours.contains("#EXT-X-MEDIA-SEQUENCE:5") && !ours.contains { $0.hasPrefix("#EXT-X-PLAYLIST-TYPE") }, "\(ours)")
        let kept = try Self.segmentNumbers(in: dir, prefix: "out", ext: "ts")
        #expect(kept == (delete ? [4, 5, 6, 7] : Array(0...7)), "\(kept)")
        #expect(kept == (try Self.segmentNumbers(in: dir, prefix: "ref", ext: "ts")))
        for s in HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/out.m3u8")) {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + s.uri))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/ref" + s.uri.dropFirst(3)))
            #expect(!a.isEmpty && a == b, "\(s.uri) differs from ffmpeg's")
        }
    }

    /// A ladder of fMP4 renditions, each media playlist a window of 2 with removal: every
    /// rendition keeps its init segment and its last 3 segments, lists the last 2 from the right
    /// sequence number, and ffprobe reads the master through to the end with no message: each
    /// variant's two listed 2 s segments hold 120 pictures.
    @Test func everyRenditionOfALadderSlides() throws {
        let dir = CLI.tempDir()
        let r = try HLSLadderTests.encode(in: dir, frames: 300, params: #", "playlist-type": "live", "list-size": 2, "delete-segments": true"#)
        #expect(r.status == 0, "\(r.stderr)")
        for port in ["video", "video1", "audio"] {
            let lines = try HLSSinkTests.lines(dir + "/out_\(port).m3u8")
            let listed = HLSSinkTests.segments(lines).map(\.uri)
            // the sound runs a little past the pictures (AAC's priming): its rendition can have one more
            let n = try #require(lines.first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }.flatMap { Int($0.dropFirst(22)) }) + listed.count
            #expect(port == "audio" ? n >= 5 : n == 5, "\(port): \(lines)")
            #expect(listed == ["out_\(port)_\(n - 2).m4s", "out_\(port)_\(n - 1).m4s"], "\(port): \(lines)")
            #expect(lines.contains("#EXT-X-ENDLIST"), "\(port): \(lines)")
            #expect(try Self.segmentNumbers(in: dir, prefix: "out_\(port)_", ext: "m4s") == [n - 3, n - 2, n - 1], "\(port)")
            #expect(FileManager.default.fileExists(atPath: dir + "/out_\(port)_init.mp4"), "\(port)")
        }
        let p = try CLI.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,width,nb_read_frames", "-of", "csv=p=0", dir + "/out.m3u8"])
        #expect(p.status == 0 && p.stderr.isEmpty, "\(p.stderr)")
        let videos = Set(p.out.split(separator: "\n").filter { $0.hasPrefix("video") })
        #expect(videos == ["video,320,120", "video,160,120"], "\(p.out)")
    }

    /// While a long job writes 0.5 s segments into a window of 3 with removal, the folder is
    /// read every few milliseconds: the playlist never lists more than 3 segments, never one
    /// whose file is not there, its MEDIA-SEQUENCE is its first segment's number, and the folder
    /// never holds more than 5 segment files (the 3 listed, the one that left last, and a new one
    /// in place a moment before the playlist lists it). Ctrl-C then ends the playlist (ENDLIST, exit 130).
    @Test func aRunningWindowNeverListsAMissingFile() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "venc": { "type": "h264", "params": { "preset": "veryfast", "keyint": 15 } },
                     "hls": { "type": "hls", "params": { "path": "live.m3u8", "segment-type": "mpegts", "playlist-type": "live",
                                                         "list-size": 3, "delete-segments": true, "segment-duration": 0.5 } } },
          "chains": [["src", "venc", "hls.video"]] }
        """, in: dir)
        let p = try CLI.startMediagraph("run", "--quiet", g)
        var highestSequence = 0
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while p.isRunning && Date() < deadline && highestSequence < 12 {
            if let text = try? String(contentsOfFile: dir + "/live.m3u8", encoding: .utf8) {
                let lines = text.split(separator: "\n").map(String.init)
                let uris = HLSSinkTests.segments(lines).map(\.uri)
                let sequence = lines.first { $0.hasPrefix("#EXT-X-MEDIA-SEQUENCE:") }.flatMap { Int($0.dropFirst(22)) } ?? -1
                #expect(text.hasSuffix("\n") && (1...3).contains(uris.count), "\(text)")
                #expect(uris.first == "live\(sequence).ts", "\(text)")
                for uri in uris {
                    #expect(FileManager.default.fileExists(atPath: dir + "/" + uri), "the playlist lists \(uri), which is not there")
                }
                highestSequence = max(highestSequence, sequence)
            }
            let files = (try? Self.segmentNumbers(in: dir, prefix: "live", ext: "ts")) ?? []
            #expect(files.count <= 5, "\(files)")
            usleep(5_000)
        }
        #expect(highestSequence >= 12, "the job did not get 15 segments far in time")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        let text = try String(contentsOfFile: dir + "/live.m3u8", encoding: .utf8)
        #expect(text.hasSuffix("#EXT-X-ENDLIST\n") && HLSSinkTests.segments(text.split(separator: "\n").map(String.init)).count == 3, "\(text)")
    }
}
