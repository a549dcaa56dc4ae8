import Foundation
import Testing

/// `mediagraph probe` against ffprobe's values for the same files.
@Suite struct ProbeTests {
    /// ffprobe's `-show_streams` entries, one dictionary per stream (tags as `TAG:name`).
    static func ffprobeStreams(_ file: String) throws -> [[String: String]] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_streams", "-show_entries", "stream_side_data=rotation", "-of", "flat", file])
        var streams: [[String: String]] = []
        for line in r.out.split(separator: "\n") {
            // streams.stream.0.width=320
            let kv = line.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { continue }
            let path = kv[0].split(separator: ".")
            guard path.count >= 4, path[0] == "streams", let i = Int(path[2]) else { continue }
            while streams.count <= i { streams.append([:]) }
            var value = String(kv[1])
            if value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            streams[i][path[3...].joined(separator: ".")] = value
        }
        return streams
    }

    static func probeJSON(_ file: String) throws -> [String: Any] {
        let r = try CLI.mediagraph("probe", "--json", file)
        #expect(r.status == 0, "\(r.stderr)")
        return (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    static func string(_ v: Any?) -> String? {
        if let s = v as? String { return s }
        if let n = v as? NSNumber { return n.stringValue }
        return nil
    }

    /// A QuickTime timecode track has no codec in libavcodec: it is named by its tag, as
    /// ffprobe's codec_tag_string names it, not as "data none".
    @Test func aStreamWithoutACodecIsNamedByItsTag() throws {
        let dir = CLI.tempDir()
        let file = dir + "/tc.mov"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-t", "1", "-timecode", "01:00:00:00", file])
        let ff = try Self.ffprobeStreams(file)
        let ours = (try Self.probeJSON(file)["streams"] as? [[String: Any]]) ?? []
        #expect(ours.count == ff.count && ff.count == 2, "\(ours) \(ff)")
        for (o, f) in zip(ours, ff) { #expect(Self.string(o["codec_tag"]) == f["codec_tag_string"], "\(o) \(f)") }
        let text = try CLI.mediagraph("probe", file)
        #expect(text.out.contains("stream 1: data 'tmcd' (no codec)"), "\(text.out)")
    }

    @Test func videoAndAudioFieldsMatchFFprobe() throws {
        let dir = CLI.tempDir()
        let file = dir + "/in.mp4"
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=352x288:rate=30000/1001", "-f", "lavfi", "-i", "sine=sample_rate=44100",
                                    "-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "1", "-map", "0", "-map", "1", "-map", "2",
                                    "-c:v", "libx264", "-pix_fmt", "yuv422p", "-vf", "setsar=4/3", "-color_primaries", "bt709", "-color_trc", "bt709",
                                    "-colorspace", "bt709", "-color_range", "tv", "-c:a", "aac", "-ac:a:0", "2",
                                    "-metadata:s:a:0", "language=eng", "-metadata:s:a:1", "language=fre", file])
        let j = try Self.probeJSON(file)
        let ours = j["streams"] as? [[String: Any]] ?? []
        let theirs = try Self.ffprobeStreams(file)
        #expect(ours.count == 3 && theirs.count == 3)
        guard ours.count == 3, theirs.count == 3 else { return }
        let v = ours[0], fv = theirs[0]
        #expect(v["port"] as? String == "video")
        for (key, ffkey) in [("codec", "codec_name"), ("width", "width"), ("height", "height"), ("native_pixel_format", "pix_fmt"),
                             ("avg_frame_rate", "avg_frame_rate"), ("r_frame_rate", "r_frame_rate"), ("time_base", "time_base"),
                             ("color_range", "color_range"), ("color_space", "color_space"), ("color_primaries", "color_primaries"),
                             ("color_transfer", "color_transfer"), ("chroma_location", "chroma_location"),
                             ("sample_aspect_ratio", "sample_aspect_ratio"), ("profile", "profile"), ("field_order", "field_order")] {
            #expect(Self.string(v[key]) == fv[ffkey], "\(key): ours \(String(describing: v[key])), ffprobe \(fv[ffkey] ?? "-")")
        }
        #expect(v["pixel_format"] as? String == "yuv422p")
        for (k, port) in [(1, "audio"), (2, "audio1")] {
            let a = ours[k], fa = theirs[k]
            #expect(a["port"] as? String == port)
            for (key, ffkey) in [("codec", "codec_name"), ("sample_rate", "sample_rate"), ("channels", "channels"),
                                 ("channel_layout", "channel_layout"), ("sample_format", "sample_fmt"), ("time_base", "time_base"),
                                 ("language", "tags.language"), ("profile", "profile")] {
                #expect(Self.string(a[key]) == fa[ffkey], "\(port) \(key): ours \(String(describing: a[key])), ffprobe \(fa[ffkey] ?? "-")")
            }
            let d = (a["duration"] as? Double) ?? -1, fd = Double(fa["duration"] ?? "") ?? -2
            #expect(abs(d - fd) < 1e-6, "\(port) duration \(d) vs \(fd)")
        }
        let format = j["format"] as? [String: Any]
        let fmt = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "format=format_name,duration", "-of", "default=nw=1", file]).out
        #expect(fmt.contains("format_name=\(format?["name"] as? String ?? "?")\n"), "\(fmt)")
        let duration = fmt.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) }
        #expect(abs(((format?["duration"] as? Double) ?? 0) - (duration ?? -1)) < 1e-6)

        // the text form names ports and the facts a user looks for
        let text = try CLI.mediagraph("probe", file)
        #expect(text.status == 0)
        #expect(text.out.contains("  video    stream 0: video h264 (High 4:2:2) 352x288 yuv422p, 29.97 fps, tv matrix bt709 primaries bt709 transfer bt709 chroma left, SAR 4:3,"), "\(text.out)")
        #expect(text.out.contains("  audio    stream 1: audio aac (LC) 44100 Hz stereo fltp, language eng,"), "\(text.out)")
        #expect(text.out.contains("  audio1   stream 2: audio aac (LC) 48000 Hz mono fltp, language fre,"), "\(text.out)")
    }

    /// A phone-style file: the display matrix of `-metadata:s:v:0 rotate=90` reads as 90, the
    /// angle ffprobe reports for it; the language and creation time come from the tags.
    @Test func rotationLanguageAndCreationTime() throws {
        let dir = CLI.tempDir()
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.4", "-c:v", "libx264", dir + "/plain.mp4"])
        for angle in [90, 180, 270] {
            let file = dir + "/r\(angle).mp4"
            try FileSourceTests.ffmpeg(["-i", dir + "/plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=\(angle)",
                                        "-metadata:s:v:0", "language=jpn", "-metadata", "creation_time=2024-05-01T12:34:56Z", file])
            let ff = try Self.ffprobeStreams(file)[0]
            let v = (try Self.probeJSON(file)["streams"] as? [[String: Any]])?.first ?? [:]
            let ffAngle = ((Int(ff["side_data_list.side_data.0.rotation"] ?? "") ?? 999) + 360) % 360
            #expect(v["rotation"] as? Int == angle && ffAngle == angle, "ours \(String(describing: v["rotation"])), ffprobe \(ff)")
            #expect(v["language"] as? String == "jpn")
            // the MP4 muxer writes the file's creation time into the track headers too
            #expect(v["creation_time"] as? String == "2024-05-01T12:34:56Z" && ff["tags.creation_time"] == "2024-05-01T12:34:56.000000Z")
        }
        let text = try CLI.mediagraph("probe", dir + "/r90.mp4")
        #expect(text.out.contains("rotated 90°, language jpn"), "\(text.out)")
    }

    /// A text subtitle stream (mov_text here) gets a port, named like the others.
    @Test func textSubtitlesGetAPort() throws {
        let dir = CLI.tempDir()
        let srt = dir + "/s.srt"
        try "1\n00:00:00,000 --> 00:00:00,500\nhello\n".write(toFile: srt, atomically: true, encoding: .utf8)
        try FileSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-i", srt, "-t", "0.5", "-map", "0", "-map", "1",
                                    "-c:v", "libx264", "-c:s", "mov_text", dir + "/in.mp4"])
        let text = try CLI.mediagraph("probe", dir + "/in.mp4")
        #expect(text.out.contains("  subtitle  stream 1: subtitle mov_text"), "\(text.out)")
        #expect(!text.out.contains("no port"), "\(text.out)")
        let v = (try Self.probeJSON(dir + "/in.mp4")["streams"] as? [[String: Any]]) ?? []
        #expect(v.count == 2 && v[1]["port"] as? String == "subtitle", "\(v)")
    }

    @Test func unreadableFilesExitWith2() throws {
        let dir = CLI.tempDir()
        try "not media at all".write(toFile: dir + "/x.txt", atomically: true, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: dir + "/empty.mp4", contents: Data()))
        for (file, message) in [(dir + "/nope.mp4", "error: cannot open '\(dir)/nope.mp4': No such file or directory"),
                                (dir + "/x.txt", "error: '\(dir)/x.txt' is not a media file libavformat recognises (Invalid data found when processing input)"),
                                (dir + "/empty.mp4", "error: '\(dir)/empty.mp4' is empty (0 bytes), not a media file"),
                                (dir, "error: cannot open '\(dir)': it is a directory")] {
            let r = try CLI.mediagraph("probe", file)
            #expect(r.status == 2, "\(file): \(r.stderr)")
            #expect(r.stderr == message + "\n", "\(r.stderr)")
            #expect(r.out.isEmpty)
        }
    }
}
