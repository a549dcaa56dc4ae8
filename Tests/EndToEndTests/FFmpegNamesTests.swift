import Foundation
import Testing

/// ffmpeg's names typed as node types get advice naming what does that here, and every node it
/// names exists.
@Suite struct FFmpegNamesTests {
    static let names = ["negate", "colorchannelmixer", "transpose", "hstack", "vstack", "xstack", "xfade", "aresample", "aformat",
                        "format", "movie", "amovie", "testsrc2", "null", "framemd5", "libx264", "libx265", "libvpx", "libvpx-vp9",
                        "libfdk_aac", "libmp3lame", "ipod", "ivf", "adts", "rawvideo", "yuv4mpegpipe", "image2", "s16le", "f32le",
                        "anullsrc", "trim", "atrim", "framerate", "hflip", "vflip", "thumbnail", "webm", "mkv", "boxblur", "gblur", "sharpen", "smartblur", "yadif",
                        "segment"]

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
        #expect(v.stderr.contains("error: node 'out': unknown node type 'webm'; ffmpeg's webm muxer is 'matroska' here: a .webm path writes WebM, any other name Matroska"), "\(v.stderr)")
    }
}
