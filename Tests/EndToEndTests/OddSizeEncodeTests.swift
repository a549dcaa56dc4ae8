import Foundation
import Testing

/// Frames of odd width and height (321x241, as a phone crop or a decoded odd-sized file gives):
/// libvpx codes them (chroma planes rounded up, as ffmpeg's libvpx wrapper does), x264 and x265
/// do not code 4:2:0 at odd sizes, and say so naming the input and the fix.
@Suite struct OddSizeEncodeTests {
    static func graph(_ codec: String, path: String) -> String {
        #"{"nodes": {"src": {"type": "y4msrc", "params": {"path": "in.y4m"}}, "enc": {"type": "\#(codec)"}, "m": {"type": "mp4", "params": {"path": "\#(path)"}}}, "chains": [["src", "enc", "m.video"]]}"#
    }

    @Test(arguments: ["vp8", "vp9"])
    func libvpxCodesOddSizes(codec: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-vf", "scale=321:241", "-frames:v", "25",
                               "-pix_fmt", "yuv420p", dir + "/in.y4m"])
        let out = dir + "/out.mp4"
        let r = try CLI.mediagraph("run", "--quiet", CLI.writeGraph(Self.graph(codec, path: "out.mp4"), in: dir))
        #expect(r.status == 0, "\(r.stderr)")
        let v = try CLI.probe(out, "codec_name,width,height,nb_read_frames", countFrames: true)
        #expect(v["codec_name"] == codec && v["width"] == "321" && v["height"] == "241" && v["nb_read_frames"] == "25", "\(v)")
        // ffmpeg decodes it as the picture it was made from (lossy: PSNR, not bytes)
        let psnr = try CLI.run("ffmpeg", ["-v", "info", "-i", out, "-i", dir + "/in.y4m", "-lavfi", "psnr", "-f", "null", "-"]).stderr
        let average = psnr.range(of: "average:").map { Double(psnr[$0.upperBound...].prefix { $0 != " " }) ?? 0 } ?? 0
        #expect(average > 30, "PSNR against the input: \(psnr.suffix(300))")
        if codec == "vp9" {
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "25"])
            #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        }
    }

    @Test(arguments: ["h264", "hevc"])
    func x264AndX265NameTheInputAndTheFix(codec: String) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-vf", "scale=321:241", "-frames:v", "2",
                               "-pix_fmt", "yuv420p", dir + "/in.y4m"])
        let r = try CLI.mediagraph("run", CLI.writeGraph(Self.graph(codec, path: "out.mp4"), in: dir))
        #expect(r.status == 2, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"))
        #expect(r.stderr.contains(#"error: node 'enc' (\#(codec)): \#(codec): the input frames are 321x241, but \#(codec) codes 4:2:0 only at even sizes; put a scale node in front of the encoder (e.g. {"type": "scale", "params": {"width": 320, "height": 240}})"#), "\(r.stderr)")
    }
}
