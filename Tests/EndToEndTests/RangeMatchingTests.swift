import Foundation
import Testing

/// Nodes that put videos in one picture or one stream give every input the first one's range:
/// a limited-range clip beside (stack) or after (concat) a full-range JPEG still is converted,
/// not shown under the full-range tag with its limited values (QA: 24 dB). The reference is
/// ffmpeg's own RGB of the source clip; ffmpeg reads our y4m's range from its header.
@Suite struct RangeMatchingTests {
    /// A full-range JPEG still and a limited-range H.264 clip, both 160x120.
    static func inputs(_ dir: String) throws {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=1", "-frames:v", "1", dir + "/still.jpg"])
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=1", "-c:v", "libx264",
                               "-pix_fmt", "yuv420p", dir + "/clip.mp4"])
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/clip.mp4", "-frames:v", "1", "-pix_fmt", "rgb24", dir + "/clip.png"])
    }

    /// PSNR of `crop` of the first frame of `file` (as ffmpeg reads it, to rgb24) against the clip's first frame.
    static func psnrAgainstClip(_ dir: String, _ file: String, crop: String, skipFrames: Int) throws -> Double {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/" + file, "-vf", "select=gte(n\\,\(skipFrames)),crop=\(crop)", "-frames:v", "1",
                               "-pix_fmt", "rgb24", dir + "/part.png"])
        return try UprightInputTests.minimumPSNR(dir + "/part.png", dir + "/clip.png")
    }

    @Test(arguments: ["stack", "concat"])
    func aLimitedClipTakesTheFirstInputsFullRange(node: String) throws {
        let dir = CLI.tempDir()
        try Self.inputs(dir)
        let second = node == "stack" ? "in1" : "video1"
        let g = CLI.writeGraph("""
        { "nodes": { "pic": { "type": "imagesrc", "params": { "path": "still.jpg", "rate": 25, "duration": 0.4, "format": "yuv420p" } },
                     "vid": { "type": "filesrc", "params": { "path": "clip.mp4", "duration": 0.4 } },
                     "n": { "type": "\(node)" }, "out": { "type": "y4msink", "params": { "path": "ours.y4m" } } },
          "chains": [["pic", "n.\(node == "stack" ? "in" : "video")"], ["vid.video", "n.\(second)"], ["n\(node == "concat" ? ".video" : "")", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("(scale): yuv420p limited → yuv420p full before 'n.\(second)'"), "\(r.stderr)")
        // the clip's picture: the right half of the stack, or concat's frames after the still's 10
        let psnr = node == "stack" ? try Self.psnrAgainstClip(dir, "ours.y4m", crop: "160:120:160:0", skipFrames: 0)
                                   : try Self.psnrAgainstClip(dir, "ours.y4m", crop: "160:120:0:0", skipFrames: 10)
        #expect(psnr > 40, "the clip's picture against ffmpeg's RGB of it: \(psnr) dB")
    }
}
