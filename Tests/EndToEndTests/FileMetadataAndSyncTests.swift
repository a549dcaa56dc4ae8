import Foundation
import Testing

/// Issue 10 through whole graphs that start from a real file: metadata kept from decode to mux,
/// audio/video offset and lengths kept through decode → filter → encode → mux, the visible
/// 10 → 8-bit converter, and a codec libavcodec does not know. References: ffprobe of the input,
/// ffmpeg doing the same job, exact messages.
@Suite struct FileMetadataAndSyncTests {
    /// ffprobe's entries of the first stream of `kind` ("v" or "a"), side data included.
    static func streamEntries(_ file: String, _ kind: String, _ entries: String) throws -> [String: String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "\(kind):0", "-show_entries", entries,
                                        "-of", "default=noprint_wrappers=1", file])
        var out: [String: String] = [:]
        for line in r.out.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }

    /// The metadata case from a file ffmpeg made: BT.709 limited range, SAR 4:3 and a
    /// display matrix of 90° survive filesrc → decode → invert → h264 → mp4, as ffprobe reads
    /// the input and the output.
    @Test func colourAspectAndRotationOfAFileReachTheOutput() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.8", "-vf", "setsar=4/3",
                                    "-c:v", "libx264", "-pix_fmt", "yuv420p", "-color_range", "tv", "-colorspace", "bt709",
                                    "-color_primaries", "bt709", "-color_trc", "bt709", dir + "/plain.mp4"])
        // ffmpeg 5.1 writes the display matrix when copying, not when encoding
        try FileSourceTests.ffmpeg(["-i", dir + "/plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", dir + "/in.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } }, "inv": { "type": "invert" },
                     "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "inv", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let entries = "stream=color_range,color_space,color_primaries,color_transfer,sample_aspect_ratio,display_aspect_ratio:stream_side_data=rotation"
        let input = try Self.streamEntries(dir + "/in.mp4", "v", entries), output = try Self.streamEntries(dir + "/out.mp4", "v", entries)
        #expect(input["color_range"] == "tv" && input["color_space"] == "bt709" && input["sample_aspect_ratio"] == "4:3"
                && input["rotation"] == "90", "the input is what the test asked ffmpeg for: \(input)")
        #expect(output == input, "\(output) vs \(input)")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.mp4", "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
    }

    /// A 60 s file (64x48 at 5 fps, AAC at 16 kHz: fast) whose audio starts 0.5 s after its
    /// video, through decode → invert / resample → h264 / aac → mp4: start times and lengths
    /// within one video frame (video) and one AAC frame (audio) of the input's, and equal to
    /// ffmpeg's for the same job (both show the new encoder's priming of a track that starts
    /// late, which no edit list can hide behind a positive start: one AAC frame earlier).
    @Test func audioOffsetAndLengthsSurviveDecodeFilterEncodeMux() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=5", "-itsoffset", "0.5",
                                    "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=16000", "-t", "60", "-map", "0", "-map", "1",
                                    "-c:v", "libx264", "-g", "25", "-c:a", "aac", dir + "/in.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } }, "inv": { "type": "invert" },
                     "venc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mix": { "type": "resample", "params": { "format": "f32planar" } }, "aenc": { "type": "aac" },
                     "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [["in.video", "inv", "venc", "mux.video"], ["in.audio", "mix", "aenc", "mux.audio"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        try FileSourceTests.ffmpeg(["-i", dir + "/in.mp4", "-vf", "negate", "-c:v", "libx264", "-preset", "ultrafast",
                                    "-c:a", "aac", dir + "/theirs.mp4"])
        func times(_ file: String, _ kind: String) throws -> (start: Double, duration: Double) {
            let e = try Self.streamEntries(file, kind, "stream=start_time,duration")
            return (Double(e["start_time"] ?? "") ?? .nan, Double(e["duration"] ?? "") ?? .nan)
        }
        let video = 1.0 / 5, audio = 1024.0 / 16000
        let inV = try times(dir + "/in.mp4", "v"), inA = try times(dir + "/in.mp4", "a")
        let outV = try times(dir + "/out.mp4", "v"), outA = try times(dir + "/out.mp4", "a")
        let ffV = try times(dir + "/theirs.mp4", "v"), ffA = try times(dir + "/theirs.mp4", "a")
        #expect(inA.start - inV.start > 0.4 && inV.duration == 60, "input: video \(inV), audio \(inA)")
        #expect(abs(outV.start - inV.start) < video && abs(outV.duration - inV.duration) < video, "video \(outV) vs input \(inV)")
        #expect(abs((outA.start - outV.start) - (inA.start - inV.start)) <= audio + 1e-6, "offset: audio \(outA) video \(outV) vs input \(inA) \(inV)")
        #expect(abs(outA.duration - inA.duration) <= audio + 1e-6, "audio \(outA) vs input \(inA)")
        #expect(abs(outV.start - ffV.start) < 0.001 && abs(outV.duration - ffV.duration) < 0.001, "video \(outV) vs ffmpeg \(ffV)")
        #expect(abs(outA.start - ffA.start) < 0.001 && abs(outA.duration - ffA.duration) < 0.001, "audio \(outA) vs ffmpeg \(ffA)")
    }

    /// A 10-bit file into an 8-bit-only filter: `validate` shows the decoder (yielding 10-bit) and
    /// then a visible convert to 8 bits; the run gives ffmpeg's `format=yuv420p,negate`.
    @Test func tenBitFileIntoAnEightBitFilterShowsTheConverter() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.4", "-c:v", "libx265",
                                    "-x265-params", "log-level=error", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", dir + "/in.mp4"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.mp4" } }, "inv": { "type": "invert" },
                     "out": { "type": "rawsink", "params": { "path": "out.yuv" } } },
          "chains": [["in.video", "inv", "out"]] }
        """, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 0, "\(v.stderr)")
        #expect(v.out.contains("note: inserted 'auto_decode_in_video' (decode): hevc 160x120 → yuv420p10le after 'in.video'\n"), "\(v.out)")
        #expect(v.out.contains("note: inserted 'auto_convert_inv_in' (convert): yuv420p10le → yuv420p before 'inv.in'\n"), "\(v.out)")
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let theirs = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.mp4", "-vf", "format=yuv420p,negate", "-f", "rawvideo", "-"]).stdout
        let ours = FileManager.default.contents(atPath: dir + "/out.yuv") ?? Data()
        #expect(theirs.count == 10 * 28800 && ours == theirs, "\(ours.count) bytes, ffmpeg \(theirs.count)")
    }

    /// A stream whose codec libavcodec does not know (an AVI whose fourcc is made up): no port,
    /// and asking for it is a validation error naming the node, the file and what it holds;
    /// `probe` lists the stream and says why it has no port.
    @Test func unknownCodecIsAValidationError() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.4", "-c:v", "mjpeg", dir + "/mjpeg.avi"])
        var bytes = [UInt8](FileManager.default.contents(atPath: dir + "/mjpeg.avi") ?? Data())
        // the fourcc in the stream header and in the bitmap header
        let tag = Array("MJPG".utf8)
        var replaced = 0
        for i in 0..<(max(4, bytes.count) - 4) where Array(bytes[i..<(i + 4)]) == tag {
            bytes.replaceSubrange(i..<(i + 4), with: Array("QQQQ".utf8))
            replaced += 1
        }
        #expect(replaced == 2)
        #expect(FileManager.default.createFile(atPath: dir + "/in.avi", contents: Data(bytes)))
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.avi" } }, "inv": { "type": "invert" },
                     "out": { "type": "nullsink" } },
          "chains": [["in.video", "inv", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: node 'in' (filesrc): '\(dir)/in.avi' has no stream 'video'; it has no video, audio or subtitle stream with a port; without a port: stream 0 (none 160x120): its codec is unknown to libavcodec"), "\(r.stderr)")
        let p = try CLI.mediagraph("probe", dir + "/in.avi")
        #expect(p.status == 0, "\(p.stderr)")
        #expect(p.out.contains("(no port: its codec is unknown to libavcodec)"), "\(p.out)")
    }
}
