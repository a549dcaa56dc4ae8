import Foundation
import Testing

/// A stream copy with filesrc's `start` into the `matroska` sink: the lead-in (the key frame
/// before `start` and what follows it, negative times) is kept, and every track is moved later
/// so that no block is before zero, as ffmpeg's own `-ss S -i in -c copy out.mkv`. Checked
/// against ffmpeg, ffprobe and Chromium; inputs are made by ffmpeg inside the tests.
@Suite struct MatroskaTrimmedCopyTests {
    /// 4 s of H.264 with 2 B-frames and a key frame every second (25 fps), + AAC, in MP4.
    static func h264AAC(in dir: String) throws -> String {
        let input = dir + "/in.mp4"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=4", "-f", "lavfi", "-i", "sine=d=4",
                                       "-c:v", "libx264", "-bf", "2", "-g", "25", "-c:a", "aac", input])
        try #require(r.status == 0, "\(r.stderr)")
        return input
    }

    /// filesrc (`start`) copying `ports` into the sink at `output` (a `matroska` or `mp4` node).
    static func copy(_ input: String, start: Double, ports: [String], to output: String, sink: String = "matroska", in dir: String) throws {
        let chains = ports.map { #"["in.\#($0)", "mux.\#($0)"]"# }.joined(separator: ", ")
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)", "start": \(start) } },
                     "mux": { "type": "\(sink)", "params": { "path": "\(output)" } } },
          "chains": [\(chains)] }
        """, in: dir, name: "g-\(sink)-\(start)-\(ports.count).json")
        let r = try CLI.mediagraph("run", "--quiet", g)
        try #require(r.status == 0, "\(r.stderr)")
    }

    static func ffmpeg(_ args: [String]) throws -> CLI.Result {
        try CLI.run("ffmpeg", ["-v", "warning"] + args)
    }

    /// The decoded pictures' MD5s.
    static func pictures(_ file: String) throws -> [String] {
        MatroskaSinkTests.fields(try MatroskaSinkTests.framemd5(["-i", file, "-map", "0:v"])).map { $0[5] }
    }

    /// 0.1 s and 1.3 s fall between key frames (3 and 8 pictures of lead-in), 1.0 s on one.
    @Test(arguments: [(0.1, 3), (1.0, 0), (1.3, 8)])
    func trimmedH264AACCopyIsFFmpegs(_ start: Double, _ leadInPictures: Int) throws {
        let dir = CLI.tempDir()
        let input = try Self.h264AAC(in: dir)
        let ours = dir + "/ours.mkv", videoOnly = dir + "/video.mkv", mp4 = dir + "/ours.mp4", theirs = dir + "/ffmpeg.mkv"
        try Self.copy(input, start: start, ports: ["video", "audio"], to: ours, in: dir)
        try Self.copy(input, start: start, ports: ["video"], to: videoOnly, in: dir)
        try Self.copy(input, start: start, ports: ["video", "audio"], to: mp4, sink: "mp4", in: dir)
        let reference = try Self.ffmpeg(["-ss", "\(start)", "-i", input, "-c", "copy", theirs])
        try #require(reference.status == 0, "\(reference.stderr)")
        for file in [ours, videoOnly] {
            // decoded, and copied again (a packet without pts cannot be written)
            let decoded = try Self.ffmpeg(["-i", file, "-f", "null", "-"])
            #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(file): \(decoded.stderr)")
            let remuxed = try Self.ffmpeg(["-i", file, "-c", "copy", "-f", "matroska", "-y", dir + "/remux.mkv"])
            #expect(remuxed.status == 0 && remuxed.stderr.isEmpty, "\(file): \(remuxed.stderr)")
        }
        // every packet has a pts, and each equals ffmpeg's copy: pts, dts, duration, size, MD5
        for stream in ["v", "a"] {
            let mine = try MatroskaSinkTests.packets(ours, stream: stream)
            #expect(mine.count > 20 && mine.allSatisfy { Int($0[0]) != nil }, "\(stream): \(mine.prefix(4))")
            let ffmpegs = try MatroskaSinkTests.packets(theirs, stream: stream)
            #expect(mine == ffmpegs, "\(stream)")
        }
        let videoPackets = try MatroskaSinkTests.packets(videoOnly, stream: "v")
        #expect(videoPackets.count > 20 && videoPackets.allSatisfy { Int($0[0]) != nil } && Int(videoPackets[0][0]) == 0,
                "\(videoPackets.prefix(4))")
        // The pictures are those of ffmpeg's copy: from the key frame at or before `start`.
        // Matroska has no edit list, so the lead-in cannot be hidden as the MP4 path hides it
        // (CodecDelay only moves it before zero, where ffmpeg still shows it): the MP4 path's
        // pictures are the same less the lead-in's, and equal them when `start` is a key frame.
        let pictures = try Self.pictures(ours)
        let ffmpegs = try Self.pictures(theirs), videoOnlys = try Self.pictures(videoOnly), mp4s = try Self.pictures(mp4)
        #expect(pictures.count >= 75 && pictures == ffmpegs)
        #expect(videoOnlys == pictures)
        #expect(Array(pictures.dropFirst(leadInPictures)) == mp4s)
        // the audio, decoded, is ffmpeg's copy's too
        let audio = MatroskaSinkTests.fields(try MatroskaSinkTests.framemd5(["-i", ours, "-map", "0:a"])).map { $0[5] }
        let ffmpegsAudio = MatroskaSinkTests.fields(try MatroskaSinkTests.framemd5(["-i", theirs, "-map", "0:a"])).map { $0[5] }
        #expect(audio.count > 50 && audio == ffmpegsAudio)
    }

    /// VP9 + Opus from ffmpeg's WebM, trimmed between key frames into .webm: ffmpeg decodes it
    /// silently, every packet has a pts, and Chromium plays every picture of it.
    @Test func trimmedVP9OpusWebMPlays() throws {
        let dir = CLI.tempDir()
        let input = dir + "/in.webm", ours = dir + "/ours.webm"
        let made = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=3", "-f", "lavfi", "-i", "sine=d=3",
                                          "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25", "-c:a", "libopus", input])
        try #require(made.status == 0, "\(made.stderr)")
        try Self.copy(input, start: 1.3, ports: ["video", "audio"], to: ours, in: dir)
        let reference = try Self.ffmpeg(["-ss", "1.3", "-i", input, "-c", "copy", dir + "/ffmpeg.webm"])
        try #require(reference.status == 0, "\(reference.stderr)")
        let decoded = try Self.ffmpeg(["-i", ours, "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "\(decoded.stderr)")
        // the video packets are ffmpeg's copy's, from the key frame at 0
        let video = try MatroskaSinkTests.packets(ours, stream: "v")
        let ffmpegsVideo = try MatroskaSinkTests.packets(dir + "/ffmpeg.webm", stream: "v")
        #expect(video.count == 50 && video.first?[0] == "0" && video == ffmpegsVideo)
        // the same Opus packets, 7 ms later than in ffmpeg's copy: in the source the first one
        // copied is 7 ms after the key frame, and ours keeps that (ffmpeg 5.1's matroskaenc
        // writes Opus blocks without their codec delay, so its copy reads them 6.5 ms early)
        let audio = try MatroskaSinkTests.packets(ours, stream: "a")
        let ffmpegsAudio = try MatroskaSinkTests.packets(dir + "/ffmpeg.webm", stream: "a")
        #expect(audio.count > 50 && audio.map { $0.dropFirst(2) } == ffmpegsAudio.map { $0.dropFirst(2) })
        #expect(audio.map { Int($0[0]) } == ffmpegsAudio.map { Int($0[0]).map { $0 + 7 } }, "\(audio.prefix(2)) \(ffmpegsAudio.prefix(2))")
        let frames = try Self.pictures(ours).count
        #expect(frames == 50, "from the key frame at 1 s to the end")
        let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [ours, "--min-frames", "\(frames)"])
        #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
    }
}
