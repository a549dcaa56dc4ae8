import Foundation
import Testing

/// HEVC of frames narrower than 50 pixels: libx265 3.5's CU-tree writes past its buffers there
/// (found by running random graphs: a 40x30 encode died in glibc's "corrupted size vs.
/// prev_size"; ffmpeg's own libx265 encode of 40x30 does the same). glibc's checking allocator
/// (libc_malloc_debug with check=3) stops the process at the first damaged block, so it finds the
/// overflow at every affected size, not just where the default allocator happens to notice.
@Suite struct NarrowHEVCTests {
    static let checkingAllocator = "/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: checkingAllocator)),
          arguments: [(40, 30), (16, 16), (48, 64), (50, 64)])
    func narrowFramesEncodeWithoutDamagingMemory(width: Int, height: Int) throws {
        let dir = CLI.tempDir()
        let out = dir + "/narrow.mp4"
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 12, "width": \(width), "height": \(height) } },
                     "enc": { "type": "hevc", "params": { "preset": "ultrafast" } },
                     "mux": { "type": "mp4", "params": { "path": "\(out)" } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.run(CLI.binary, ["run", "--quiet", g], cwd: dir,
                            environment: ["LD_PRELOAD": Self.checkingAllocator, "GLIBC_TUNABLES": "glibc.malloc.check=3"])
        #expect(r.status == 0, "\(width)x\(height): \(r.stderr.prefix(300))")
        let v = try CLI.probe(out, "codec_name,width,height,nb_read_frames", countFrames: true)
        #expect(v["codec_name"] == "hevc" && v["width"] == "\(width)" && v["height"] == "\(height)")
        #expect(v["nb_read_frames"] == "12")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }

    /// The allocator check above fails without the fix: ffmpeg's libx265 encode of the same
    /// frames, with x265's defaults, is stopped by it (so the test can tell).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: checkingAllocator)))
    func theCheckCatchesLibx265sOverflow() throws {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=48x64:rate=30", "-frames:v", "6",
                                       "-c:v", "libx265", "-x265-params", "log-level=error", "-f", "null", "-"],
                            environment: ["LD_PRELOAD": Self.checkingAllocator, "GLIBC_TUNABLES": "glibc.malloc.check=3"])
        #expect(r.status != 0, "libx265 no longer overflows at 48 pixels wide: narrowestWithCuTree can go")
        let fixed = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=48x64:rate=30", "-frames:v", "6",
                                           "-c:v", "libx265", "-x265-params", "log-level=error:cutree=0", "-f", "null", "-"],
                                environment: ["LD_PRELOAD": Self.checkingAllocator, "GLIBC_TUNABLES": "glibc.malloc.check=3"])
        #expect(fixed.status == 0, "\(fixed.stderr.prefix(300))")
    }

    @Test func askingForTheCuTreeOnNarrowFramesIsAClearError() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2, "width": 40, "height": 30 } },
                     "enc": { "type": "hevc", "params": { "x265-params": "cutree=1" } },
                     "out": { "type": "nullsink" } },
          "chains": [["src", "enc", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("'enc'") && r.stderr.contains("x265-params") && r.stderr.contains("narrower than 50"), "\(r.stderr)")
    }

    /// libx265 opens nothing under 16 pixels a side; that was found only when the first frame
    /// came (exit 1), now when the graph is checked.
    @Test func picturesUnderSixteenPixelsAreRefusedAtValidation() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "frames": 2, "width": 64, "height": 14 } },
                     "enc": { "type": "hevc" }, "out": { "type": "nullsink" } },
          "chains": [["src", "enc", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", g)
        #expect(r.status == 2)
        #expect(r.stderr.contains("'enc'") && r.stderr.contains("'height'") && r.stderr.contains("at least 16 pixels a side") && r.stderr.contains("64x14"), "\(r.stderr)")
    }
}
