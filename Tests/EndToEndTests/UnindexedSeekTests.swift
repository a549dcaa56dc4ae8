import Foundation
import Testing

/// `start` in a file without an index (MPEG-TS): libavformat's generic search lands on any
/// packet, not on a key frame. Found by copying random trims of files into MP4: the copy began
/// with pictures whose references were never read (ffmpeg's decode of it reported "co located
/// POCs unavailable"), and a decode lost every frame between `start` and the next key frame (9
/// of 15 frames left at start 0.3, 6 at 1.7). Reference: ffmpeg's `trim` filter on a decode of
/// the whole file (ffmpeg's own `-ss` on a TS loses the same frames).
@Suite struct UnindexedSeekTests {
    static func makeTS(_ dir: String) throws -> String {
        let path = dir + "/in.ts"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi", "-i", "sine=sample_rate=48000",
                                    "-t", "3", "-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-bf", "2", "-c:a", "aac", path])
        return path
    }

    static func trimReference(_ input: String, start: Double, frames: Int) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", input, "-an", "-vf", "trim=start=\(start)", "-frames:v", "\(frames)", "-f", "framemd5", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: [0.3, 1.7])
    func decodeStartsAtTheFrameAtStart(start: Double) throws {
        let dir = CLI.tempDir()
        let input = try Self.makeTS(dir)
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "\(input)", "start": \(start), "duration": 0.5 } },
                     "raw": { "type": "setparams", "params": { "range": "limited" } },
                     "hash": { "type": "framehash", "params": { "path": "\(dir)/h.txt" } } },
          "chains": [["src.video", "raw", "hash"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = ((try? String(contentsOfFile: dir + "/h.txt", encoding: .utf8)) ?? "").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
        #expect(ours.count == 15)
        #expect(ours == (try Self.trimReference(input, start: start, frames: 15)))
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test(arguments: [0.3, 1.7])
    func aCopyStartsAtAKeyFrameAndPlaysFromStart(start: Double) throws {
        let dir = CLI.tempDir()
        let input = try Self.makeTS(dir)
        let out = dir + "/copy.mp4"
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "filesrc", "params": { "path": "\(input)", "start": \(start) } },
                     "mux": { "type": "mp4", "params": { "path": "\(out)" } } },
          "chains": [["src.video", "mux.video"], ["src.audio", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let first = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=flags", "-read_intervals", "%+#1",
                                            "-of", "csv=p=0", out])
        #expect(first.out.hasPrefix("K"), "the first video packet: \(first.out)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
        let played = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-an", "-frames:v", "15", "-f", "framemd5", "-"])
        let frames = played.out.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { String($0.split(separator: ",").last!).trimmingCharacters(in: .whitespaces) }
        #expect(frames == (try Self.trimReference(input, start: start, frames: 15)))
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// `thumbnails` seeks the same way: on the TS it took each picture from the GOP after the
    /// point's (seek past the wanted key frame, frames dropped up to the next), and the last point
    /// found none ("2 of 3 pictures: the file has too few frames").
    @Test func thumbnailsOfATSTakeEachPointsOwnGOP() throws {
        let dir = CLI.tempDir()
        let input = try Self.makeTS(dir)
        let r = try CLI.mediagraph("thumbnails", input, "--count", "3", "--output", dir + "/t-%d.png")
        #expect(r.status == 0 && !r.stderr.contains("too few"), "\(r.stderr)")
        let times = r.out.split(separator: "\n").compactMap { Double($0.split(separator: "\t").last ?? "") }
        #expect(times.count == 3, "\(r.out)")
        // each from the 0.5 s GOP that holds the middle of its third of the 3 s file
        for (i, t) in times.enumerated() {
            let middle = 3.0 * (Double(i) + 0.5) / 3
            #expect(t <= middle && t > middle - 0.55, "picture \(i) at \(t) s for the point at \(middle) s")
        }
        try? FileManager.default.removeItem(atPath: dir)
    }
}
