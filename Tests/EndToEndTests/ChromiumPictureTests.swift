import Foundation
import Testing

/// Chromium shows our animated GIF and WebP: a headless screenshot of a page holding the
/// picture (at its own size, no margin; 320x240: at 160x120 headless Chromium paints only part
/// of the window) equals, pixel for pixel, one of the frames decoded by an
/// independent reader (ffmpeg for GIF, libwebp for WebP). Skipped where Chromium is missing.
@Suite struct ChromiumPictureTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A screenshot of `picture` (width x height) in headless Chromium, as packed rgb24.
    static func screenshot(_ picture: String, width: Int, height: Int, in dir: String) throws -> [UInt8] {
        let page = dir + "/page.html"
        let name = (picture as NSString).lastPathComponent
        #expect(FileManager.default.createFile(atPath: page, contents: Data("""
            <html><body style="margin:0;background:#000"><img src="\(name)"></body></html>
            """.utf8)))
        try CLI.run(chromium!, ["--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars", "--force-device-scale-factor=1",
                                "--user-data-dir=\(dir)/profile", "--screenshot=\(dir)/shot.png", "--window-size=\(width),\(height)",
                                "file://" + page])
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/shot.png", "-pix_fmt", "rgb24", "-f", "rawvideo", dir + "/shot.rgb"])
        return [UInt8](FileManager.default.contents(atPath: dir + "/shot.rgb") ?? Data())
    }

    static func clip(_ dir: String) throws -> String {
        try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "8", "-pix_fmt", "yuv444p", dir + "/in.y4m"])
        return dir + "/in.y4m"
    }

    @Test(.enabled(if: chromium != nil)) func chromiumShowsOurGif() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(dir)
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "gif", "params": { "path": "out.gif" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let shot = try Self.screenshot(dir + "/out.gif", width: 320, height: 240, in: dir)
        try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/out.gif", "-pix_fmt", "rgb24", "-f", "rawvideo", dir + "/frames.rgb"])
        let frames = [UInt8](FileManager.default.contents(atPath: dir + "/frames.rgb") ?? Data())
        let size = 320 * 240 * 3
        #expect(shot.count == size)
        #expect(frames.count == 8 * size)
        let shown = (0..<8).filter { k in frames.count >= (k + 1) * size && Array(frames[k * size..<(k + 1) * size]) == shot }
        #expect(!shown.isEmpty, "Chromium's picture is none of the GIF's frames as ffmpeg decodes them")
    }

    @Test(.enabled(if: chromium != nil)) func chromiumShowsOurWebP() throws {
        let dir = CLI.tempDir()
        _ = try Self.clip(dir)
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "y4msrc", "params": { "path": "in.y4m" } },
                     "out": { "type": "webp", "params": { "path": "out.webp", "lossless": true } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        #expect(try CLI.mediagraph("run", "--quiet", g).status == 0)
        let shot = try Self.screenshot(dir + "/out.webp", width: 320, height: 240, in: dir)
        let a = try #require(WebPSinkTests.decode(dir + "/out.webp"))
        #expect(a.frames.count == 8)
        #expect(shot.count == 320 * 240 * 3)
        // lossless, so Chromium's own YUV conversion does not come in; libwebp's frames are RGBA
        let shown = a.frames.filter { Self.sameRGB(rgba: $0, rgb: shot) }
        #expect(!shown.isEmpty, "Chromium's picture is none of the WebP's frames as libwebp decodes them")
    }

    /// Whether an RGBA frame has the colours of an RGB picture.
    static func sameRGB(rgba: [UInt8], rgb: [UInt8]) -> Bool {
        guard rgba.count / 4 == rgb.count / 3 else { return false }
        for p in 0..<rgb.count / 3 {
            let a = 4 * p, b = 3 * p
            if rgba[a] != rgb[b] || rgba[a + 1] != rgb[b + 1] || rgba[a + 2] != rgb[b + 2] { return false }
        }
        return true
    }
}
