import Foundation
import Testing

/// The `transition` node: 'from' before `offset`, the gl-transitions shader with progress
/// (t - offset) / duration per frame in between, 'to' after.
@Suite struct TransitionGraphTests {
    @Test func crossFadeFollowsProgressPerFrame() throws {
        let dir = CLI.tempDir()
        // from: 20 frames of grey 200 at 25 fps (0 … 0.8 s); to: 20 frames of grey 50, starting
        // at the transition (offset 0.4 s); a fade of 0.4 s, then to until it ends (1.2 s)
        for (name, level) in [("from", "C8C8C8"), ("to", "323232")] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x\(level):s=16x8:r=25", "-frames:v", "20",
                                           "-pix_fmt", "rgba", "-f", "rawvideo", "\(dir)/\(name).raw"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let graph = CLI.writeGraph("""
        { "nodes": { "a": { "type": "rawsrc", "params": { "path": "\(dir)/from.raw", "width": 16, "height": 8, "format": "rgba" } },
                     "b": { "type": "rawsrc", "params": { "path": "\(dir)/to.raw", "width": 16, "height": 8, "format": "rgba" } },
                     "t": { "type": "transition", "params": { "offset": 0.4, "duration": 0.4, "end": "longest" } },
                     "out": { "type": "rawsink", "params": { "path": "\(dir)/out.raw" } } },
          "chains": [["a", "t.from"], ["b", "t.to"], ["t", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", graph)
        #expect(r.status == 0, "\(r.stderr)")
        let out = [UInt8](FileManager.default.contents(atPath: "\(dir)/out.raw") ?? Data())
        let frameBytes = 16 * 8 * 4
        #expect(out.count == 30 * frameBytes, "\(out.count / frameBytes) frames")
        var wrong: [String] = []
        for k in 0..<min(30, out.count / frameBytes) {
            let p = min(max((Double(k) / 25 - 0.4) / 0.4, 0), 1)
            let want = Int((200 * (1 - p) + 50 * p).rounded())
            let got = Int(out[k * frameBytes])
            if abs(got - want) > 1 { wrong.append("frame \(k): \(got), expected \(want) (progress \(p))") }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test func aTransitionSamplingAThirdTextureIsRefused() throws {
        let dir = CLI.tempDir()
        let graph = CLI.writeGraph("""
        { "nodes": { "a": { "type": "testsrc", "params": { "width": 16, "height": 8, "frames": 1, "format": "rgba" } },
                     "b": { "type": "testsrc", "params": { "width": 16, "height": 8, "frames": 1, "format": "rgba" } },
                     "t": { "type": "transition", "params": { "source": "uniform sampler2D luma; vec4 transition(vec2 uv) { return texture2D(luma, uv); }" } },
                     "out": { "type": "nullsink" } },
          "chains": [["a", "t.from"], ["b", "t.to"], ["t", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", graph)
        #expect(r.status == 2)
        #expect(r.stderr.contains("transition t.source samples 'luma' besides the two clips; a transition has two inputs, 'from' and 'to'"), "\(r.stderr)")
    }
}
