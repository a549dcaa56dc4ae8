import CWebP
import Foundation
import Testing

/// The `webp` sink (animated WebP), read back with libwebp's own animation decoder (ffmpeg 5.1
/// cannot decode animated WebP: "image data not found"): frame count, frame end times in
/// milliseconds, loop count, and pictures against ffmpeg's RGBA of the same input.
@Suite struct WebPSinkTests {
    struct Animation {
        var width = 0, height = 0, loop = -1
        var frames: [[UInt8]] = []
        /// End time of each frame (libwebp's timestamps), ms.
        var ends: [Int] = []
    }

    static func decode(_ path: String) -> Animation? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { raw -> Animation? in
            var webp = WebPData(bytes: raw.bindMemory(to: UInt8.self).baseAddress, size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return nil }
            options.color_mode = MODE_RGBA
            guard let dec = WebPAnimDecoderNew(&webp, &options) else { return nil }
            defer { WebPAnimDecoderDelete(dec) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(dec, &info) != 0 else { return nil }
            var a = Animation(width: Int(info.canvas_width), height: Int(info.canvas_height), loop: Int(info.loop_count))
            while WebPAnimDecoderHasMoreFrames(dec) != 0 {
                var buf: UnsafeMutablePointer<UInt8>?
                var ts: Int32 = 0
                guard WebPAnimDecoderGetNext(dec, &buf, &ts) != 0, let buf else { return nil }
                a.frames.append(Array(UnsafeBufferPointer(start: buf, count: a.width * a.height * 4)))
                a.ends.append(Int(ts))
            }
            return a
        }
    }

    /// PSNR of the colour channels (alpha left out) of two RGBA frames.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var se = 0.0, n = 0
        for i in stride(from: 0, to: min(a.count, b.count), by: 4) {
            for c in 0..<3 { let d = Double(a[i + c]) - Double(b[i + c]); se += d * d }
            n += 3
        }
        return se == 0 ? 99 : 10 * log10(255 * 255 / (se / Double(max(n, 1))))
    }

    @Test(arguments: [(true, 40.0), (false, 25.0)])
    func framesTimesAndPicturesReadBackWithLibwebp(_ lossless: Bool, _ minimumPSNR: Double) throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=96x72:rate=25", "-frames:v", "10", "-pix_fmt", "yuv444p", dir + "/in.y4m"])
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/in.y4m", "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/in.rgba"])
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "webp", "params": { "path": "out.webp", "lossless": \(lossless), "loop": 2 } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let a = try #require(Self.decode(dir + "/out.webp"), "libwebp could not decode out.webp")
        #expect(a.width == 96 && a.height == 72)
        #expect(a.loop == 2)
        #expect(a.frames.count == 10)
        #expect(a.ends == (1...10).map { $0 * 40 })
        let reference = [UInt8](FileManager.default.contents(atPath: dir + "/in.rgba") ?? Data())
        let frameBytes = 96 * 72 * 4
        for (i, f) in a.frames.enumerated() where reference.count >= (i + 1) * frameBytes {
            let q = Self.psnr(f, Array(reference[i * frameBytes..<(i + 1) * frameBytes]))
            // lossless: only the two YUV→RGB conversions differ; lossy q75 measured 26.6-27.6 dB
            // on these 96x72 frames (4:2:0 chroma on testsrc2's sharp colour edges)
            #expect(q >= minimumPSNR, "frame \(i): \(q) dB")
        }
    }

    /// Variable frame times (a GIF with variable delays as input) come out as the same times.
    @Test func variableFrameTimesInMilliseconds() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25:duration=0.4",
                               "-vf", "setpts='if(lt(N,4),N*0.1,0.4+(N-4)*0.06)/TB'", "-fps_mode", "vfr", dir + "/in.gif"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "in.gif" } },
                     "out": { "type": "webp", "params": { "path": "out.webp" } } },
          "chains": [["in.video", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 0, "\(r.stderr)")
        let packets = try GifSinkTests.packets(dir + "/in.gif")
        let a = try #require(Self.decode(dir + "/out.webp"))
        #expect(a.frames.count == packets.count)
        #expect(a.ends == packets.map { ($0.pts + $0.duration) * 10 })
    }
}
