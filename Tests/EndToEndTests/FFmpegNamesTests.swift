import Foundation
import Testing

/// ffmpeg's names typed as node types get advice naming what does that here, every node it
/// names exists, and the one recipe that is not a plain rename (a gain as a one-input `amix`)
/// gives ffmpeg's `volume` samples.
@Suite struct FFmpegNamesTests {
    static let names = ["negate", "colorchannelmixer", "transpose", "hstack", "vstack", "xstack", "xfade", "aresample", "aformat",
                        "format", "movie", "amovie", "testsrc2", "null", "framemd5", "libx264", "libx265", "libvpx", "libvpx-vp9",
                        "libfdk_aac", "ipod", "ivf", "adts", "rawvideo", "yuv4mpegpipe", "image2", "s16le", "f32le", "eq", "volume",
                        "anullsrc", "trim", "atrim", "framerate", "hflip", "vflip", "thumbnail", "webm", "matroska", "mkv", "boxblur", "gblur", "unsharp"]

    @Test func everyNameGetsAdviceNamingNodesThatExist() throws {
        for name in Self.names {
            let r = try CLI.mediagraph("nodes", name)
            #expect(r.status == 2, "\(name): \(r.stderr)")
            let advice = r.stderr.components(separatedBy: "unknown node type '\(name)'; ").last ?? ""
            #expect(!advice.isEmpty && !advice.hasPrefix("did you mean"), "\(name): \(r.stderr)")
            // every 'quoted' word is a node type `mediagraph nodes` describes
            let pattern = try NSRegularExpression(pattern: "'([A-Za-z0-9._-]+)'")
            let quoted = pattern.matches(in: advice, range: NSRange(advice.startIndex..., in: advice)).compactMap { m in
                Range(m.range(at: 1), in: advice).map { String(advice[$0]) }
            }
            #expect(!quoted.isEmpty, "\(name): \(advice)")
            for node in quoted {
                let d = try CLI.mediagraph("nodes", node)
                #expect(d.status == 0, "\(name) → '\(node)': \(d.stderr)")
            }
        }
        // in a graph too, with its place in the file; 'webm' is no longer offered 'webp'
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{ "nodes": { "src": { "type": "testsrc" }, "out": { "type": "webm" } }, "chains": [["src", "out"]] }"#, in: dir)
        let v = try CLI.mediagraph("validate", g)
        #expect(v.status == 2)
        #expect(v.stderr.contains("error: node 'out': unknown node type 'webm'; there is no WebM or Matroska muxer: 'mp4' carries VP8, VP9 and Opus"), "\(v.stderr)")
    }

    @Test func aGainAsAOneInputAmixIsFFmpegsVolume() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "tone": { "type": "sine", "params": { "frequency": 1000, "seconds": 1, "sample-rate": 44100, "channels": 1 } },
                     "gain": { "type": "amix", "params": { "gains": [0.5], "normalize": false } },
                     "out":  { "type": "pcmsink", "params": { "path": "ours.f32" } } },
          "chains": [["tone", "gain", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        // ffmpeg's volume on the same tone (our sine, written before the gain, is its input)
        let tone = CLI.writeGraph("""
        { "nodes": { "tone": { "type": "sine", "params": { "frequency": 1000, "seconds": 1, "sample-rate": 44100, "channels": 1 } },
                     "out":  { "type": "pcmsink", "params": { "path": "tone.f32" } } },
          "chains": [["tone", "out"]] }
        """, in: dir, name: "tone.json")
        #expect(try CLI.mediagraph("run", "--quiet", tone).status == 0)
        let f = try CLI.run("ffmpeg", ["-v", "error", "-f", "f32le", "-ar", "44100", "-ac", "1", "-i", dir + "/tone.f32",
                                       "-af", "volume=0.5", "-f", "f32le", dir + "/ffmpeg.f32"])
        #expect(f.status == 0, "\(f.stderr)")
        func floats(_ path: String) -> [Float] {
            let d = FileManager.default.contents(atPath: path) ?? Data()
            return d.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        let ours = floats(dir + "/ours.f32"), theirs = floats(dir + "/ffmpeg.f32")
        #expect(ours.count == 44100 && ours.count == theirs.count, "\(ours.count) vs \(theirs.count)")
        #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) <= 1e-6 }, "largest difference \(zip(ours, theirs).map { abs($0 - $1) }.max() ?? 0)")
        #expect((ours.max() ?? 0) > 0.2)
    }
}
