import Foundation
import Testing

/// The decode and resample nodes in graphs run by the CLI: inserted where packets meet raw
/// inputs (shown by validate), frames equal to ffmpeg's decode, the error policy.
@Suite struct DecodeGraphTests {
    /// framehash lines: (pts, size, md5).
    static func hashes(_ path: String) -> [(pts: Int64, size: Int, md5: String)] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count == 4, let pts = Int64(f[1]), let size = Int(f[2]) else { return nil }
            return (pts, size, f[3])
        }
    }

    /// ffmpeg's framemd5 of a file's first video (or audio) stream as decoded by ffmpeg, in the
    /// stream's own time base with no frame dropped or duplicated.
    static func ffmpegHashes(_ path: String, _ extra: [String]) throws -> (tb: String, frames: [(pts: Int64, size: Int, md5: String)]) {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-enc_time_base", "-1"] + extra + ["-f", "framemd5", "-"])
        var tb = ""
        var frames: [(Int64, Int, String)] = []
        for line in r.out.split(separator: "\n") {
            if line.hasPrefix("#tb 0:") { tb = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("#") { continue }
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if f.count == 6, let pts = Int64(f[2]), let size = Int(f[4]) { frames.append((pts, size, f[5])) }
        }
        return (tb, frames)
    }

    /// h264src → (decode inserted) → invert → framehash equals ffmpeg's decode → negate, frame
    /// for frame, at the same times (compared in seconds: h264src counts in its VUI time base,
    /// ffmpeg's raw H.264 reader in 1/1200000).
    @Test func decodeThenInvertMatchesFFmpeg() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "3",
                               "-c:v", "libx264", "-bf", "3", "-refs", "4", "-g", "250", "-pix_fmt", "yuv420p", dir + "/in.h264"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "h264src", "params": { "path": "in.h264" } },
                     "inv": { "type": "invert" },
                     "out": { "type": "framehash", "params": { "path": "ours.txt" } } },
          "chains": [["src", "inv", "out"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0, "\(v.stderr)")
        #expect((v.out + v.stderr).contains("inserted 'auto_decode_src_out' (decode): h264 320x240 → yuv420p after 'src.out'"), "\(v.out)\(v.stderr)")
        let r = try CLI.mediagraph("run", "--stats", g)
        #expect(r.status == 0, "\(r.stderr)")
        // the decoder holds pictures until libavcodec lets go of most: invert then works in place
        let pools = r.stderr.split(separator: "\n").first { $0.hasPrefix("pools:") }.map(String.init) ?? ""
        let inPlace = pools.split(separator: ",").last.flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
        #expect(inPlace >= 40, "\(pools)")
        let ours = Self.hashes(dir + "/ours.txt")
        let theirs = try Self.ffmpegHashes(dir + "/in.h264", ["-vf", "negate"])
        #expect(ours.count == 75 && theirs.frames.count == 75)
        #expect(ours.map(\.md5) == theirs.frames.map(\.md5), "decode → invert differs from ffmpeg's decode → negate")
        #expect(Self.sameTimes(ours.map(\.pts), theirs.frames.map(\.pts)), "frame times differ from ffmpeg's")
    }

    /// Whether two lists of timestamps in different time bases name the same instants: both start
    /// at zero, so they must be proportional, exactly (a[i]·b[n] = b[i]·a[n]).
    static func sameTimes(_ a: [Int64], _ b: [Int64]) -> Bool {
        guard a.count == b.count, let an = a.last, let bn = b.last, an > 0 else { return false }
        return zip(a, b).allSatisfy { $0.0 * bn == $0.1 * an }
    }

    /// adtssrc → (decode) → resample to s16 → framehash equals ffmpeg's decode of the ADTS file to
    /// s16, buffer for buffer.
    @Test func aacDecodedAndResampledMatchesFFmpeg() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1",
                               "-ac", "2", "-c:a", "aac", "-b:a", "96k", dir + "/in.aac"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "adtssrc", "params": { "path": "in.aac" } },
                     "rs": { "type": "resample", "params": { "format": "s16" } },
                     "out": { "type": "framehash", "params": { "path": "ours.txt" } } },
          "chains": [["src", "rs", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("inserted 'auto_decode_src_out' (decode): aac 44100Hz 2ch → f32planar 44100Hz 2ch after 'src.out'"), "\(r.stderr)")
        let ours = Self.hashes(dir + "/ours.txt")
        let theirs = try Self.ffmpegHashes(dir + "/in.aac", ["-c:a", "pcm_s16le"])
        #expect(!ours.isEmpty && ours.map(\.md5) == theirs.frames.map(\.md5))
        #expect(Self.sameTimes(ours.map(\.pts), theirs.frames.map(\.pts)), "pts in samples")
    }

    /// resample by hand: 48 kHz stereo s16 → 44.1 kHz mono f32; timestamps count output samples
    /// without a gap, and the sample count equals ffmpeg's conversion of the same file.
    @Test func resampleKeepsTimestampsExact() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1.5",
                               "-ac", "2", "-c:a", "pcm_s16le", dir + "/in.wav"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "wavsrc", "params": { "path": "in.wav" } },
                     "rs": { "type": "resample", "params": { "rate": 44100, "layout": "mono", "format": "f32" } },
                     "out": { "type": "framehash", "params": { "path": "ours.txt" } } },
          "chains": [["src", "rs", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let ours = Self.hashes(dir + "/ours.txt")
        var next: Int64 = 0
        for b in ours {
            #expect(b.pts == next, "buffer at \(b.pts), expected \(next)")
            next = b.pts + Int64(b.size / 4)
        }
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.wav", "-ar", "44100", "-ac", "1", "-f", "f32le", dir + "/ref.raw"])
        let reference = (try? FileManager.default.attributesOfItem(atPath: dir + "/ref.raw")[.size] as? Int) ?? -1
        #expect(next * 4 == Int64(reference), "\(next) samples, ffmpeg \(reference / 4)")
    }

    /// An 8-bit filter after a 10-bit stream: decode yields 10-bit, and a visible convert to the
    /// same layout in 8 bits follows (never a silent conversion).
    @Test func tenBitIntoAnEightBitFilterShowsAConvert() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.4",
                               "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-pix_fmt", "yuv420p10le", dir + "/in.ivf"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "ivfsrc", "params": { "path": "in.ivf" } },
                     "dec": { "type": "decode" },
                     "out": { "type": "framehash", "params": { "path": "ours.txt" } } },
          "chains": [["src", "dec", "out"]] }
        """, in: dir)
        // ivfsrc cannot tell the bit depth from the IVF header and declares yuv420p: the decoder
        // converts to it and says so when the run ends
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: node 'dec' (decode): from 0.0 s the pictures are yuv420p10le 160x120, not the declared yuv420p 160x120: 10 frames converted with libswscale"), "\(r.stderr)")
    }

    /// MP2 is declared float planar (the container's guess) but libavcodec's mp2 decoder gives
    /// s16p from the first frame on: that is converted without a warning, which is kept for
    /// audio that changes while it plays. The sound is all there: as long as ffmpeg's transcode.
    @Test func aDecodersOwnSampleFormatFromTheStartIsNoWarning() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=duration=2:sample_rate=48000", "-c:a", "mp2", dir + "/in.mp2"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp2" } }, "enc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "ours.mp4" } } },
          "chains": [["in.audio", "enc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("warning"), "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp2", "-c:a", "aac", dir + "/theirs.mp4"])
        func duration(_ f: String) throws -> Double {
            Double(try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", f]).out
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let ours = try duration(dir + "/ours.mp4"), theirs = try duration(dir + "/theirs.mp4")
        #expect(theirs > 1.9 && abs(ours - theirs) < 0.03, "ours \(ours) s, ffmpeg's \(theirs) s")
    }

    /// A packet that cannot be decoded stops the run with its time (default), or is skipped and
    /// counted (`errors: skip`).
    @Test func errorPolicy() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1",
                               "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "5", dir + "/in.ivf"])
        // cut frame 11 (an inter frame) to its first 3 bytes: a valid frame marker, nothing to decode (IVF: a 32-byte
        // header, then 12 bytes before each frame: size, pts)
        var bytes = [UInt8](FileManager.default.contents(atPath: dir + "/in.ivf")!)
        var offset = 32
        for _ in 0..<11 { offset += 12 + (Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16) }
        let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
        bytes.removeSubrange(offset + 12 + 3 ..< offset + 12 + size)
        bytes[offset] = 3; bytes[offset + 1] = 0; bytes[offset + 2] = 0; bytes[offset + 3] = 0
        #expect(FileManager.default.createFile(atPath: dir + "/bad.ivf", contents: Data(bytes)))
        for policy in ["stop", "skip"] {
            let g = CLI.writeGraph("""
            { "nodes": { "src": { "type": "ivfsrc", "params": { "path": "bad.ivf" } },
                         "dec": { "type": "decode", "params": { "errors": "\(policy)" } },
                         "out": { "type": "framehash", "params": { "path": "\(policy).txt" } } },
              "chains": [["src", "dec", "out"]] }
            """, in: dir, name: policy + ".json")
            let r = try CLI.mediagraph("run", "--quiet", g)
            if policy == "stop" {
                #expect(r.status == 1)
                #expect(r.stderr.contains("node 'dec' (decode)") && r.stderr.contains("the packet at 0.44 s (pts 11 in 1/25) cannot be decoded: "), "\(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: dir + "/stop.txt"), "nothing half-written")
            } else {
                #expect(r.status == 0, "\(r.stderr)")
                #expect(r.stderr.contains("warning: node 'dec' (decode): skipped "), "\(r.stderr)")
                #expect(r.stderr.contains("undecodable packet; the first: the packet at 0.44 s (pts 11 in 1/25) cannot be decoded"), "\(r.stderr)")
                #expect(Self.hashes(dir + "/skip.txt").count >= 20)
            }
        }
    }
}
