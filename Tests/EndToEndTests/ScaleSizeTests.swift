import Foundation
import Testing

/// `scale`'s sizes against ffmpeg's `-vf scale=…` on the same decoded frames: the same width,
/// height and sample aspect in the Y4M header, and the same pixels, for numbers, -1 and -n,
/// expressions over every variable kind, 0 as the input's size and both aspect-ratio fits, on a
/// square-pixel and an anamorphic input (odd results included).
@Suite struct ScaleSizeTests {
    static let cases: [(params: String, filter: String)] = [
        (#""width": 161, "height": -1"#, "scale=161:-1"),
        // 104·180/320 = 58.5: a half rounds away from zero, as av_rescale
        (#""width": 104, "height": -1"#, "scale=104:-1"),
        (#""width": "iw/3", "height": "-2""#, "scale=iw/3:-2"),
        (#""width": 640, "height": 480, "force-original-aspect-ratio": "decrease""#, "scale=640:480:force_original_aspect_ratio=decrease"),
        (#""width": 640, "height": 480, "force-original-aspect-ratio": "increase", "force-divisible-by": 4"#,
         "scale=640:480:force_original_aspect_ratio=increase:force_divisible_by=4"),
        (#""width": "trunc(oh*a/2)*2", "height": 101"#, "scale=trunc(oh*a/2)*2:101"),
        (#""width": -4, "height": "ih*2/3""#, "scale=-4:ih*2/3"),
        (#""width": 0, "height": 50"#, "scale=0:50"),
        (#""width": "iw*sar", "height": "ih""#, "scale=iw*sar:ih"),
        (#""width": "oh*dar", "height": "ih/vsub*3""#, "scale=oh*dar:ih/vsub*3"),
        (#""width": "iw/ohsub*3", "height": -1, "format": "yuv444p""#, "scale=iw/ohsub*3:-1,format=yuv444p"),
    ]

    /// A square-pixel 320x180 clip, and an anamorphic 176x120 one (sample aspect 10:11).
    static func inputs(in dir: String) throws -> [String] {
        let square = dir + "/square.mp4", wide = dir + "/anamorphic.mp4"
        for (file, source, extra) in [(square, "testsrc2=size=320x180:rate=25", [String]()),
                                      (wide, "testsrc2=size=176x120:rate=25", ["-vf", "setsar=10/11"])] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", source, "-frames:v", "3"] + extra
                                           + ["-c:v", "libx264", "-pix_fmt", "yuv420p", file])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return [square, wide]
    }

    /// The Y4M header line and the frames' MD5s.
    static func describe(_ y4m: String) throws -> (header: String, frames: [String]) {
        let data = FileManager.default.contents(atPath: y4m) ?? Data()
        let header = String(decoding: data.prefix { $0 != 0x0a }, as: UTF8.self)
            .split(separator: " ").filter { ["W", "H", "A", "C"].contains($0.first) }.joined(separator: " ")
        let md5 = try CLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-f", "framemd5", "-"]).out
        return (header, md5.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") })
    }

    @Test(arguments: cases)
    func sizesAndPicturesAreFFmpegs(_ params: String, _ filter: String) throws {
        let dir = CLI.tempDir()
        for input in try Self.inputs(in: dir) {
            let g = CLI.writeGraph("""
            { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(input)" } }, "s": { "type": "scale", "params": { \(params) } },
                         "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
              "chains": [["in.video", "s", "out"]] }
            """, in: dir)
            let r = try CLI.mediagraph("run", "--quiet", g)
            #expect(r.status == 0, "\(filter) on \(input): \(r.stderr)")
            let f = try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", input, "-vf", filter, "-f", "yuv4mpegpipe", dir + "/ffmpeg.y4m"])
            #expect(f.status == 0, "\(f.stderr)")
            let ours = try Self.describe(dir + "/ours.y4m"), theirs = try Self.describe(dir + "/ffmpeg.y4m")
            #expect(ours.header == theirs.header && !theirs.header.isEmpty, "\(filter) on \(input): ours \(ours.header), ffmpeg's \(theirs.header)")
            #expect(ours.frames == theirs.frames && theirs.frames.count == 3, "\(filter) on \(input): pictures differ")
        }
    }

    @Test(arguments: [
        (#""width": "oh*2", "height": "ow/2""#, "param 'height': 'ow/2' gives nan for this input (64x48); is it defined through itself"),
        (#""width": "(iw", "height": -1"#, "param 'width': expected ')' at offset 3 of '(iw'"),
        (#""width": "iw*1000", "height": -1"#, "params 'width'/'height': for this input (64x48) they give 64000x48000; each side must be 1…16384"),
        (#""width": 100, "force-divisible-by": 0"#, "param 'force-divisible-by': expected integer 1…256, found 0"),
    ])
    func mistakesAreNamed(_ params: String, _ message: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1 } }, "s": { "type": "scale", "params": { \(params) } },
                     "out": { "type": "nullsink" } }, "chains": [["src", "s", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2 && r.stderr.contains(message), "\(r.stderr)")
    }
}
