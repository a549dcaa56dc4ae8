import Foundation
import Testing

/// A display matrix that mirrors (determinant −1) reaches the MP4 written from the stream as it
/// was, by stream copy and through decode → h264, as ffmpeg's `-c copy` keeps it. Before, the
/// mirror was dropped and a horizontal mirror came out as a half turn (upside down). The
/// reference: the source's own tkhd matrix, and ffprobe's reading of both.
@Suite struct MirroredMatrixTests {
    /// Byte offset of the first tkhd's matrix (a version-0 tkhd, as ffmpeg and we write them).
    static func matrixOffset(_ d: [UInt8]) -> Int? {
        guard let i = (0..<(d.count - 4)).first(where: { d[$0] == 0x74 && d[$0 + 1] == 0x6B && d[$0 + 2] == 0x68 && d[$0 + 3] == 0x64 }) else { return nil }
        // after "tkhd": version/flags 4, times 8, track id 4, reserved 4, duration 4, reserved 8,
        // layer, group, volume, reserved 8
        return i + 4 + 4 + 8 + 4 + 4 + 4 + 8 + 8
    }

    /// The a, b, c, d terms of a file's first tkhd matrix (16.16).
    static func terms(_ file: String) -> [Int32] {
        let d = [UInt8](FileManager.default.contents(atPath: file) ?? Data())
        guard let o = matrixOffset(d), o + 16 <= d.count else { return [] }
        return [0, 4, 12, 16].map { k in Int32(bitPattern: UInt32(d[o + k]) << 24 | UInt32(d[o + k + 1]) << 16 | UInt32(d[o + k + 2]) << 8 | UInt32(d[o + k + 3])) }
    }

    /// `file` with its first tkhd matrix's a, b, c, d (at `offset`) set to `terms` (16.16).
    static func withMatrix(_ file: [UInt8], at offset: Int, _ terms: [Int32]) -> [UInt8] {
        var d = file
        for (term, at) in zip(terms, [0, 4, 12, 16]) {
            let v = UInt32(bitPattern: term << 16)
            d[offset + at ..< offset + at + 4] = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return d
    }

    @Test func everyMirrorAndTurnIsKeptByCopyAndByTranscode() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:duration=0.2", "-c:v", "libx264", dir + "/plain.mp4"])
        let plain = [UInt8](FileManager.default.contents(atPath: dir + "/plain.mp4") ?? Data())
        let o = try #require(Self.matrixOffset(plain))
        // the four mirrors among the eight quarter-turn matrices (a, b, c, d), and one plain turn
        let mirrors: [[Int32]] = [[-1, 0, 0, 1], [1, 0, 0, -1], [0, 1, 1, 0], [0, -1, -1, 0], [0, -1, 1, 0]]
        for (k, m) in mirrors.enumerated() {
            let d = Self.withMatrix(plain, at: o, m)
            let source = dir + "/m\(k).mp4"
            #expect(FileManager.default.createFile(atPath: source, contents: Data(d)))
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "m\(k).mp4" } },
                         "mux": { "type": "mp4", "params": { "path": "copy\(k).mp4" } },
                         "enc": { "type": "h264", "params": { "preset": "ultrafast" } }, "mux2": { "type": "mp4", "params": { "path": "enc\(k).mp4" } } },
              "chains": [["in.video", "mux.video"], ["in.video", "enc", "mux2.video"]] }
            """, in: dir, name: "g\(k).json")
            let r = try CLI.mediagraph("run", "-q", g)
            #expect(r.status == 0, "\(r.stderr)")
            let want = m.map { $0 << 16 }
            #expect(Self.terms(source) == want)
            #expect(Self.terms(dir + "/copy\(k).mp4") == want, "copy of matrix \(m)")
            #expect(Self.terms(dir + "/enc\(k).mp4") == want, "transcode of matrix \(m)")
            let rotation = { (f: String) in
                try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", f]).out
            }
            #expect(try rotation(dir + "/enc\(k).mp4") == rotation(source), "ffprobe's rotation of matrix \(m)")
        }
    }

    /// Pictures show a mirrored stream as ffmpeg's autorotate does (`transpose=cclock_flip`,
    /// `clock_flip`, `hflip`, `vflip`): an image sequence (the inserted `rotate`) and
    /// `thumbnails` (turned as they are taken, at the upright width so none is scaled), identical to ffmpeg's PNG of the same frame.
    @Test func picturesOfAMirroredStreamAreFFmpegsAutorotatedFrames() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:duration=0.2", "-c:v", "libx264",
                               "-pix_fmt", "yuv420p", dir + "/plain.mp4"])
        let plain = [UInt8](FileManager.default.contents(atPath: dir + "/plain.mp4") ?? Data())
        let o = try #require(Self.matrixOffset(plain))
        for (k, m) in ([[-1, 0, 0, 1], [1, 0, 0, -1], [0, 1, 1, 0], [0, -1, -1, 0]] as [[Int32]]).enumerated() {
            let d = Self.withMatrix(plain, at: o, m)
            #expect(FileManager.default.createFile(atPath: dir + "/m\(k).mp4", contents: Data(d)))
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "m\(k).mp4" } },
                         "seq": { "type": "imageseqsink", "params": { "path": "seq\(k)-%03d.png" } } },
              "chains": [["in.video", "seq"]] }
            """, in: dir, name: "p\(k).json")
            let r = try CLI.mediagraph("run", "-q", g)
            #expect(r.status == 0, "\(r.stderr)")
            let t = try CLI.run(CLI.binary, ["thumbnails", "m\(k).mp4", "-n", "1", "--width", k < 2 ? "96" : "64", "-o", "thumb\(k)-%d.png"], cwd: dir)
            #expect(t.status == 0, "\(t.stderr)")
            try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/m\(k).mp4", dir + "/theirs\(k)-%03d.png"])
            for ours in ["seq\(k)-001.png", "thumb\(k)-1.png"] {
                let psnr = try UprightInputTests.minimumPSNR(dir + "/" + ours, dir + "/theirs\(k)-001.png")
                #expect(psnr == .infinity, "\(ours) of matrix \(m) against ffmpeg's autorotated frame: \(psnr) dB")
            }
        }
    }
}
