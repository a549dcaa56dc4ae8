import Foundation
import Testing

/// The filters of Docs/writing-a-filter.md: the document's code is this target's code, and the
/// filters give what their formulas (and ffmpeg) say.
@Suite struct WritingAFilterTests {
    @Test func everyCodeBlockOfTheDocIsCompiledHere() throws {
        let doc = try String(contentsOfFile: Tool.root + "/Docs/writing-a-filter.md", encoding: .utf8)
        let code = try String(contentsOfFile: Tool.root + "/Tests/MediaGraphPluginsTests/WritingAFilterExamples.swift", encoding: .utf8)
        let blocks = doc.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count >= 4)
        for b in blocks {
            #expect(code.contains(b), "Docs/writing-a-filter.md has a block that is not in WritingAFilterExamples.swift:\n\(b)")
        }
    }

    @Test func vignetteFollowsItsFormula() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try runVignette(strength: 0, to: dir + "/plain.rgba")   // factor 1 everywhere: the input itself
        try runVignette(strength: 0.8, to: dir + "/vignette.rgba")
        let src = Tool.read(dir + "/plain.rgba"), out = Tool.read(dir + "/vignette.rgba")
        let (w, h) = (320, 240)
        #expect(src.count == w * h * 4 * 3 && out.count == src.count)
        var worst = 0
        for i in stride(from: 0, to: src.count, by: 1) {
            let px = i / 4 % (w * h), c = i % 4
            let x = Double(px % w) + 0.5, y = Double(px / w) + 0.5
            let r2 = (pow((x - 160) / 160, 2) + pow((y - 120) / 120, 2)) / 2
            let e = c == 3 ? Int(src[i]) : Int((Double(src[i]) * max(0, 1 - 0.8 * r2)).rounded())
            worst = max(worst, abs(e - Int(out[i])))
        }
        #expect(worst == 0)
        // the corners are darker than the centre of the same grey-ish input
        let changed = out != src
        #expect(changed)
    }

    /// The built-in-style colour filter of the doc: r' = min(255, r + 10), b' = max(0, b − 10) at
    /// amount 0.4 (0.04 · 255 = 10.2, never near a rounding tie); amount 0 gives the input.
    @Test func warmthFollowsItsFormulaAndPassesAmountZero() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try runWarmth(amount: 0, to: dir + "/plain.rgba")
        try runWarmth(amount: 0.4, to: dir + "/warm.rgba")
        let src = Tool.read(dir + "/plain.rgba"), out = Tool.read(dir + "/warm.rgba")
        #expect(src.count == 64 * 48 * 4 * 2 && out.count == src.count)
        var wrong = 0
        for i in 0..<src.count {
            let v = Int(src[i])
            let e = [min(255, v + 10), v, max(0, v - 10), v][i % 4]
            if Int(out[i]) != e { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(src != out)
    }

    /// Luma equals ffmpeg's tblend=all_mode=difference (|a − b| of consecutive frames).
    @Test func frameDifferenceMatchesFFmpegTblend() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h, n) = (160, 120, 4)
        let input = try Tool.testFrames(dir, width: w, height: h, format: "yuv420p", frames: n)
        try runFrameDifference(input: input, width: w, height: h, to: dir + "/ours.yuv")
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(w)x\(h)", "-i", input,
                                        "-vf", "tblend=all_mode=difference", "-f", "rawvideo", dir + "/ref.yuv"])
        #expect(f.status == 0, "\(f.stderr)")
        let ours = Tool.read(dir + "/ours.yuv"), ref = Tool.read(dir + "/ref.yuv")
        let frame = w * h * 3 / 2
        #expect(ours.count == n * frame)
        #expect(ref.count == (n - 1) * frame)
        #expect(ours[0..<(w * h)].allSatisfy { $0 == 0 }, "the first frame is black")
        for k in 1..<n {
            let same = ours[(k * frame)..<(k * frame + w * h)].elementsEqual(ref[((k - 1) * frame)..<((k - 1) * frame + w * h)])
            #expect(same, "frame \(k) luma")
            #expect(ours[(k * frame + w * h)..<((k + 1) * frame)].allSatisfy { $0 == 128 }, "frame \(k) chroma")
        }
        #expect(ours[frame..<(frame + w * h)].contains { $0 != 0 }, "testsrc2 moves, so differences are not all zero")
    }
}
