import Foundation
import Testing

/// The README's "Using it" commands work as written, run from the directory holding the user's
/// file (paths given with --set are relative to it): filter, trim and remux a video made by
/// ffmpeg, checked with ffprobe and ffmpeg.
@Suite struct ReadmeCommandsTests {
    /// A 1 s 320x240 25 fps H.264 + AAC QuickTime file, as a phone would give, in a fresh directory.
    static func userVideo() throws -> String {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi",
                               "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-c:v", "libx264", "-preset", "veryfast",
                               "-pix_fmt", "yuv420p", "-c:a", "aac", dir + "/myvideo.mov"])
        return dir
    }

    /// Size and MD5 of each packet of a stream ("v:0", "a:0"), as ffprobe reads them.
    static func packets(_ file: String, _ stream: String) throws -> [String] {
        let r = try CLI.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_data_hash", "MD5",
                                        "-show_entries", "packet=size,data_hash", "-of", "csv=p=0", file])
        return r.out.split(separator: "\n").map(String.init)
    }

    static func frameCount(_ file: String) throws -> String {
        try CLI.probe(file, "nb_read_frames", countFrames: true)["nb_read_frames"] ?? "?"
    }

    @Test func filterYourOwnVideo() throws {
        let dir = try Self.userVideo()
        let r = try CLI.run(CLI.binary, ["run", "--quiet", CLI.root + "/Graphs/filesrc-sepia-mp4.json",
                                         "--set", "in.path=myvideo.mov", "--set", "mux.path=myvideo-sepia.mp4"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let out = dir + "/myvideo-sepia.mp4"
        #expect(try Self.frameCount(out) == "25")
        #expect(try CLI.probe(out, "codec_name,width,height") == ["codec_name": "h264", "width": "320", "height": "240"])
        let audio = try Self.packets(out, "a:0"), source = try Self.packets(dir + "/myvideo.mov", "a:0")
        #expect(!audio.isEmpty && audio == source, "the AAC packets are copied untouched")
    }

    /// The scale-out commands, the tasks and the join run from other directories than the plan
    /// (as on other machines): the plan holds every path absolute.
    @Test func spreadALongEncodeOverMachines() throws {
        let dir = try Self.userVideo()
        let plan = try CLI.run(CLI.binary, ["plan", CLI.root + "/Graphs/filesrc-sepia-mp4.json", "--set", "in.path=myvideo.mov",
                                            "--set", "mux.path=film-sepia.mp4", "--segments", "3", "--work", "film.plan"], cwd: dir)
        #expect(plan.status == 0, "\(plan.stderr)")
        let manifest = dir + "/film.plan/manifest.json"
        for k in 0..<4 {
            let r = try CLI.run(CLI.binary, ["run-segment", manifest, "--index", String(k), "--quiet"], cwd: "/")
            #expect(r.status == 0, "task \(k): \(r.stderr)")
        }
        let join = try CLI.run(CLI.binary, ["join", manifest, "--quiet"], cwd: "/")
        #expect(join.status == 0, "\(join.stderr)")
        let out = dir + "/film-sepia.mp4"
        #expect(try Self.frameCount(out) == "25")
        let audio = try Self.packets(out, "a:0"), source = try Self.packets(dir + "/myvideo.mov", "a:0")
        #expect(!audio.isEmpty && audio == source, "the AAC packets are copied untouched")
    }

    @Test func aStillPictureOverASong() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", dir + "/cover.jpg"])
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "libmp3lame", dir + "/song.mp3"])
        let r = try CLI.run("timeout", ["120", CLI.binary, "run", "--quiet", CLI.root + "/Graphs/cover-song-mp4.json",
                                        "--set", "cover.path=cover.jpg", "--set", "song.path=song.mp3", "--set", "mux.path=song.mp4"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let durations = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration", "-of", "csv=p=0", dir + "/song.mp4"]).out
        let d = Dictionary(durations.split(separator: "\n").compactMap { line -> (String, Double)? in
            let f = line.split(separator: ",")
            return f.count == 2 ? (String(f[0]), Double(f[1]) ?? 0) : nil
        }, uniquingKeysWith: { a, _ in a })
        // the whole 2 s song, and the picture for as long (x264's reordering may show a few frames past it)
        #expect(abs((d["audio"] ?? 0) - 2) < 0.03 && (d["video"] ?? 0) > 1.95 && (d["video"] ?? 0) < 2.2, "\(d)")
    }

    @Test func theSoundAsAnMP3() throws {
        let dir = try Self.userVideo()
        let r = try CLI.run(CLI.binary, ["run", "--quiet", CLI.root + "/Graphs/filesrc-to-mp3.json",
                                         "--set", "in.path=myvideo.mov", "--set", "out.path=myvideo.mp3"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/myvideo.mov", "-vn", "-c:a", "libmp3lame", "-b:a", "192k", dir + "/ffmpeg.mp3"])
        let samples = { (file: String) throws -> Int in
            try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-f", "s16le", "-ac", "1", "-"]).stdout.count / 2
        }
        let probe = try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bit_rate", "-of", "csv=p=0", dir + "/myvideo.mp3"]).out
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "mp3,192000")
        #expect(try samples(dir + "/myvideo.mp3") == (try samples(dir + "/ffmpeg.mp3")))
    }

    @Test func trimAClip() throws {
        let dir = try Self.userVideo()
        let r = try CLI.run(CLI.binary, ["run", "--quiet", CLI.root + "/Graphs/filesrc-trim-mp4.json", "--set", "in.path=myvideo.mov",
                                         "--set", "in.start=0.4", "--set", "in.duration=0.4", "--set", "mux.path=clip.mp4"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        // ffmpeg's accurate seek of the same span gives the frame count to expect
        let reference = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/myvideo.mov", "-ss", "0.4", "-t", "0.4", "-map", "0:v:0",
                                               "-f", "framemd5", "-"])
        let expected = reference.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.count
        #expect(expected == 10)
        #expect(try Self.frameCount(dir + "/clip.mp4") == "\(expected)")
    }

    @Test func remuxWithoutDecoding() throws {
        let dir = try Self.userVideo()
        let r = try CLI.run(CLI.binary, ["run", "--quiet", CLI.root + "/Graphs/filesrc-remux.json", "--set", "in.path=myvideo.mov",
                                         "--set", "mux.path=myvideo.mp4"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        for stream in ["v:0", "a:0"] {
            let copied = try Self.packets(dir + "/myvideo.mp4", stream), source = try Self.packets(dir + "/myvideo.mov", stream)
            #expect(!copied.isEmpty && copied == source, "\(stream) packets copied untouched")
        }
    }

    @Test func probeNamesThePorts() throws {
        let dir = try Self.userVideo()
        let r = try CLI.run(CLI.binary, ["probe", "myvideo.mov"], cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.out.contains("video    stream 0: video h264") && r.out.contains("audio    stream 1: audio aac"), "\(r.out)")
    }
}
