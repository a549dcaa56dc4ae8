import Foundation
import Testing

/// A still image without a duration next to a song (ffmpeg's `-loop 1 -i cover.png -i song.mp3
/// -shortest`): the mp4 sink's `end: shortest` ends the run where the song ends, and validation
/// warns of a graph that only Ctrl-C would end. Checked with ffprobe and Chromium.
@Suite struct ShortestEndTests {
    static func coverAndSong(in dir: String, songSeconds: String = "3.3") throws {
        let a = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", dir + "/cover.png"])
        #expect(a.status == 0, "\(a.stderr)")
        let b = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=\(songSeconds)", "-c:a", "libmp3lame", dir + "/song.mp3"])
        #expect(b.status == 0, "\(b.stderr)")
    }

    static func graph(in dir: String, end: String) -> String {
        CLI.writeGraph("""
        { "nodes": { "img":  { "type": "imagesrc", "params": { "path": "cover.png", "rate": 25, "format": "yuv420p" } },
                     "song": { "type": "filesrc", "params": { "path": "song.mp3" } },
                     "v":    { "type": "h264", "params": { "preset": "veryfast" } },
                     "a":    { "type": "aac", "params": {} },
                     "out":  { "type": "mp4", "params": { "path": "out.mp4"\(end) } } },
          "chains": [["img", "v", "out.video"], ["song.audio", "a", "out.audio"]] }
        """, in: dir)
    }

    /// ffprobe's `entry` of every stream of `file`, by codec type.
    static func streams(_ file: String, _ entry: String) throws -> [String: Double] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,\(entry)", "-of", "csv=p=0", file])
        var out: [String: Double] = [:]
        for line in r.out.split(separator: "\n") {
            let f = line.split(separator: ",")
            if f.count == 2, let v = Double(f[1]) { out[String(f[0])] = v }
        }
        return out
    }

    @Test func aStillImageBesideASongEndsWithTheSong() throws {
        let dir = CLI.tempDir()
        try Self.coverAndSong(in: dir)
        let g = Self.graph(in: dir, end: #", "end": "shortest""#)
        // without the cut the image would be encoded for ever: `timeout` turns that into a failure
        let r = try CLI.run("timeout", ["120", CLI.binary, "run", g], cwd: CLI.root)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("end: shortest: the file ends at"), "\(r.stderr)")
        let out = dir + "/out.mp4"
        // the song's length as ffmpeg decodes it (the MP3's own duration counts its padding)
        let wav = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/song.mp3", dir + "/song.wav"])
        #expect(wav.status == 0, "\(wav.stderr)")
        let song = try Self.streams(dir + "/song.wav", "duration")["audio"] ?? 0
        let got = try Self.streams(out, "duration")
        let audio = got["audio"] ?? 0, video = got["video"] ?? 0
        // the whole song is there (one AAC frame of rounding either way) …
        #expect(abs(audio - song) < 0.03, "audio \(audio) s, the song \(song) s")
        // … and the picture ends with it: packets decoding after the song's end are left out, so
        // at most the encoder's reordering delay (3 B-frames + 1 at 25 fps) of pictures shows past it
        #expect(video > song - 0.05 && video <= song + 0.17, "video \(video) s, the song \(song) s")
        // every packet kept decodes
        let frames = try CLI.probe(out, "nb_frames,nb_read_frames", countFrames: true)
        #expect(frames["nb_frames"] != nil && frames["nb_frames"] == frames["nb_read_frames"], "\(frames)")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "60"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }

    @Test func validationWarnsOfAnImageThatNothingEnds() throws {
        let dir = CLI.tempDir()
        try Self.coverAndSong(in: dir)
        let endless = try CLI.mediagraph("validate", Self.graph(in: dir, end: ""))
        #expect(endless.status == 0, "\(endless.stderr)")
        #expect(endless.stderr.contains("warning: node 'img' (imagesrc) has no 'duration', and nothing between it and 'out' ends the run: it goes on until stopped (Ctrl-C)"),
                "\(endless.stderr)")
        let ended = try CLI.mediagraph("validate", Self.graph(in: dir, end: #", "end": "shortest""#))
        #expect(ended.status == 0 && !ended.stderr.contains("until stopped"), "\(ended.stderr)")
        // an endless logo over a clip: overlay follows its main input (end: first), nothing to say
        let clip = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:d=1", dir + "/clip.mp4"])
        #expect(clip.status == 0, "\(clip.stderr)")
        func overlay(main: String, logo: String) -> String {
            CLI.writeGraph("""
            { "nodes": { "clip": { "type": "filesrc", "params": { "path": "clip.mp4" } },
                         "img":  { "type": "imagesrc", "params": { "path": "cover.png" } },
                         "ov":   { "type": "overlay", "params": {} },
                         "out":  { "type": "nullsink", "params": {} } },
              "chains": [["\(main)", "ov.main"], ["\(logo)", "ov.overlay"], ["ov", "out"]] }
            """, in: dir, name: "ov-\(main).json")
        }
        let logo = try CLI.mediagraph("validate", overlay(main: "clip.video", logo: "img"))
        #expect(logo.status == 0 && !logo.stderr.contains("until stopped"), "\(logo.stderr)")
        let main = try CLI.mediagraph("validate", overlay(main: "img", logo: "clip.video"))
        #expect(main.stderr.contains("node 'img' (imagesrc) has no 'duration', and nothing between it and 'out' ends the run"), "\(main.stderr)")
    }

    /// The video (2 s) and the longer audio (3 s) copied from two files, copied from one file
    /// (the sink runs on the file's thread and learns that the video has ended only at the end of
    /// the file: ffmpeg's `-c copy -shortest` keeps all the audio then), and re-encoded from one
    /// file: each time the audio stops where the video ends.
    @Test(arguments: ["two files", "one file", "one file, encoded"])
    func theLongerAudioEndsWithTheVideo(_ how: String) throws {
        let dir = CLI.tempDir()
        let v = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264", "-preset", "veryfast", dir + "/v.mp4"])
        #expect(v.status == 0, "\(v.stderr)")
        let a = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=d=3", "-c:a", "aac", dir + "/a.m4a"])
        #expect(a.status == 0, "\(a.stderr)")
        let both = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/v.mp4", "-i", dir + "/a.m4a", "-c", "copy", dir + "/both.mp4"])
        #expect(both.status == 0, "\(both.stderr)")
        let (sources, chains) = switch how {
        case "two files": (#""v": { "type": "filesrc", "params": { "path": "v.mp4" } }, "a": { "type": "filesrc", "params": { "path": "a.m4a" } }"#,
                           #"["v.video", "out.video"], ["a.audio", "out.audio"]"#)
        case "one file": (#""in": { "type": "filesrc", "params": { "path": "both.mp4" } }"#, #"["in.video", "out.video"], ["in.audio", "out.audio"]"#)
        default: (#""in": { "type": "filesrc", "params": { "path": "both.mp4" } }, "v": { "type": "h264", "params": { "preset": "veryfast" } }, "a": { "type": "aac", "params": {} }"#,
                  #"["in.video", "v", "out.video"], ["in.audio", "a", "out.audio"]"#)
        }
        let g = CLI.writeGraph("""
        { "nodes": { \(sources), "out": { "type": "mp4", "params": { "path": "out.mp4", "end": "shortest" } } },
          "chains": [\(chains)] }
        """, in: dir)
        let r = try CLI.run("timeout", ["120", CLI.binary, "run", g], cwd: CLI.root)
        #expect(r.status == 0, "\(r.stderr)")
        let source = try Self.streams(dir + "/both.mp4", "duration"), got = try Self.streams(dir + "/out.mp4", "duration")
        let video = source["video"] ?? 0
        #expect(video > 1.9 && (source["audio"] ?? 0) > 2.9, "\(source)")
        #expect(abs((got["video"] ?? 0) - video) < 0.001, "\(got), the video \(video) s")
        // the audio stops within one AAC frame (1024 samples at 44.1 kHz) of the video's end
        #expect(abs((got["audio"] ?? 0) - video) < 0.024, "\(got), the video \(video) s")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [dir + "/out.mp4", "--min-frames", "40"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }
}
