import Foundation
import Testing

/// `reverse` and `areverse` against ffmpeg 5.1's filters of the same names: the same pictures
/// and samples (MD5 of each) at the same times, from the start of a file and from a trimmed
/// start; a clip larger than `max-memory` stops with a message naming where, and writes nothing.
@Suite struct ReverseTests {
    func compare(audio: Bool, start: String?) throws {
        let dir = CLI.tempDir()
        // sound from a WAV: a trimmed AAC decodes from the packet at the trim and ffmpeg's -ss from
        // the key frame before (the decoder's noise generator then differs), a WAV the same
        let file = audio ? "in.wav" : try SetPTSTests.source(in: dir, timescale: 75)
        if audio {
            let w = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=2:r=44100", "-c:a", "pcm_f32le", dir + "/in.wav"])
            #expect(w.status == 0, "\(w.stderr)")
        }
        let startParam = start.map { #", "start": \#($0)"# } ?? ""
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(file)"\(startParam) } },
                     "r": { "type": "\(audio ? "areverse" : "reverse")" },
                     "out": { "type": "framehash", "params": { "path": "ours.txt", "times": true } }\(audio ? #", "pcm": { "type": "pcmsink", "params": { "path": "ours.f32" } }"# : "") },
          "chains": [["in.\(audio ? "audio" : "video")", "r", "out"]\(audio ? #", ["r", "pcm"]"# : "")] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        let seek = start.map { ["-ss", $0] } ?? []
        let select = audio ? ["-af", "areverse", "-vn", "-c:a", "pcm_f32le"]
            : ["-vf", "reverse", "-an", "-fps_mode", "passthrough", "-enc_time_base", "-1"]
        let f = try CLI.run("ffmpeg", ["-v", "error"] + seek + ["-i", dir + "/" + file] + select + ["-f", "framemd5", dir + "/ffmpeg.txt"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = SetPTSTests.frames(dir + "/ours.txt", ffmpeg: false), theirs = SetPTSTests.frames(dir + "/ffmpeg.txt", ffmpeg: true)
        if audio {
            // a trimmed file's buffers are cut where the trim falls (ffmpeg's keep the decoder's),
            // so the samples are compared whole, and the time of the first
            let p = try CLI.run("ffmpeg", ["-v", "error"] + seek + ["-i", dir + "/" + file] + select + ["-f", "f32le", dir + "/ffmpeg.f32"])
            #expect(p.status == 0, "\(p.stderr)")
            let a = VolumeTests.floats(dir + "/ours.f32"), b = VolumeTests.floats(dir + "/ffmpeg.f32")
            #expect(a.count > 44100 && a == b, "\(a.count) samples vs ffmpeg's \(b.count)")
            #expect(ours.first?.prefix(11) == theirs.first?.prefix(11), "first time: ours \(ours.first ?? ""), ffmpeg's \(theirs.first ?? "")")
            return
        }
        #expect(ours.count > 10 && ours == theirs,
                "\(ours.count) frames vs ffmpeg's \(theirs.count); first difference: \(SetPTSTests.firstDifference(ours, theirs))")
        // the pictures really run the other way: the first out is the input's last
        #expect(Set(ours.prefix(3)) != Set(ours.suffix(3)))
    }

    @Test(arguments: [nil, "1.02"])
    func videoIsFFmpegs(start: String?) throws {
        try compare(audio: false, start: start)
    }

    @Test(arguments: [nil, "0.5"])
    func audioIsFFmpegs(start: String?) throws {
        try compare(audio: true, start: start)
    }

    /// 1280x720 rgba frames are 3.5 MiB each: 16 MiB holds four, the fifth is refused by name.
    @Test(arguments: [false, true])
    func aClipLargerThanMaxMemoryIsRefused(audio: Bool) throws {
        let dir = CLI.tempDir()
        let source = audio ? #""src": { "type": "sine", "params": { "seconds": 60 } }"#
            : #""src": { "type": "testsrc", "params": { "frames": 50 } }, "rgba": { "type": "convert", "params": { "format": "rgba" } }"#
        let chain = audio ? #"["src", "r", "enc", "mux.audio"]"# : #"["src", "rgba", "r", "enc", "mux.video"]"#
        let g = CLI.writeGraph("""
        { "nodes": { \(source), "r": { "type": "\(audio ? "areverse" : "reverse")", "params": { "max-memory": \(audio ? 1 : 16) } },
                     "enc": { "type": "\(audio ? "aac" : "h264")" }, "mux": { "type": "mp4", "params": { "path": "out.mp4" } } },
          "chains": [\(chain)] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 1, "\(r.status): \(r.stderr)")
        let expected = audio ? "'r' (areverse): the buffer of sample 131072 at 2.731 s would pass param 'max-memory' (1 MiB held"
            : "'r' (reverse): frame 4 at 0.133 s would pass param 'max-memory' (16 MiB held"
        #expect(r.stderr.contains(expected), "\(r.stderr)")
        #expect(r.stderr.contains("reverse a shorter clip (filesrc start/duration) or raise max-memory"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))
    }
}
