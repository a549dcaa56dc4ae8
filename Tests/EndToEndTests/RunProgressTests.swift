import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// What the progress line and the closing "done: N frames" count: video frames, by ffprobe's
/// count of the input, not a file's audio and video packets together; concat's clips add up.
@Suite struct RunProgressTests {
    static func ffmpegClip(_ path: String, seconds: Int, rate: Int) throws {
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=\(rate)", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
                               "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", path])
    }

    @Test func aFileWithSoundCountsItsFrames() throws {
        let dir = CLI.tempDir()
        try Self.ffmpegClip(dir + "/in.mp4", seconds: 2, rate: 25)
        let frames = try CLI.run("ffprobe", ["-v", "error", "-select_streams", "v", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                             "-of", "csv=p=0", dir + "/in.mp4"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(frames == "50")
        let json = """
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(dir)/in.mp4" } }, "s": { "type": "sepia" },
                     "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "\(dir)/out.mp4" } } },
          "chains": [["in.video", "s", "enc", "mux.video"], ["in.audio", "mux.audio"]] }
        """
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        let runner = GraphRunner(graph: g)
        #expect(runner.progress.total == 50, "the total counts video frames only")
        try runner.run()
        #expect(runner.progress.done == 50)
        #expect(runner.framesDelivered == 50)
        // and the command line says so
        let r = try CLI.mediagraph("run", CLI.writeGraph(json.replacingOccurrences(of: "out.mp4", with: "out2.mp4"), in: dir))
        #expect(r.status == 0 && r.stderr.contains("done: 50 frames in "), "\(r.stderr)")
    }

    @Test func concatenatedClipsAddUp() throws {
        let dir = CLI.tempDir()
        try Self.ffmpegClip(dir + "/a.mp4", seconds: 1, rate: 25)
        try Self.ffmpegClip(dir + "/b.mp4", seconds: 2, rate: 25)
        let json = """
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "\(dir)/a.mp4" } }, "b": { "type": "filesrc", "params": { "path": "\(dir)/b.mp4" } },
                     "cat": { "type": "concat" }, "enc": { "type": "h264", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "\(dir)/out.mp4" } } },
          "chains": [["a.video", "cat.video"], ["b.video", "cat.video1"], ["cat", "enc", "mux.video"]] }
        """
        let g = try GraphBuilder.build(try GraphFile.parse(text: json), registry: BuiltinNodes.makeRegistry())
        let runner = GraphRunner(graph: g)
        #expect(runner.progress.total == 75)
        try runner.run()
        #expect(runner.progress.done == 75)
        let written = try CLI.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0",
                                              dir + "/out.mp4"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(runner.framesDelivered.map(String.init) == written, "ffprobe counts \(written) frames in the output")
    }

    @Test func aGraphWithoutVideoSaysHowLongItTook() throws {
        let dir = CLI.tempDir()
        let r = try CLI.mediagraph("run", CLI.writeGraph("""
        { "nodes": { "tone": { "type": "sine", "params": { "seconds": 0.5 } }, "out": { "type": "pcmsink", "params": { "path": "t.pcm" } } },
          "chains": [["tone", "out"]] }
        """, in: dir))
        #expect(r.status == 0 && r.stderr.split(separator: "\n").last?.hasPrefix("done in ") == true, "\(r.stderr)")
    }
}
