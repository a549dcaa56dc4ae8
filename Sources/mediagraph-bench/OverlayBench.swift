// The "overlay" benchmark area: the overlay kernel against ffmpeg's `overlay` filter on the same
// frames — a 300x100 RGBA logo over 1080p yuv420p (bottom-right, 10 px margin) and a 1080p RGBA
// picture over 1080p rgba — at 1 thread and all cores. ffmpeg's figure is its command less the
// same command without the overlay (reading the raw main), per frame.
import Foundation
import MediaGraphCore
import MediaGraphKernels

enum OverlayBench {
    static let area = BenchArea(name: "overlay", run: run)

    /// One picture from ffmpeg (lavfi `source`) as `pixfmt` into `name` (raw) and, if asked, a PNG.
    static func make(_ source: String, frames: Int, pixfmt: String, name: String, png: String? = nil, dir: URL) -> Data? {
        var args = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source, "-frames:v", "\(frames)",
                    "-pix_fmt", pixfmt, "-f", "rawvideo", name]
        if let png { args += ["-frames:v", "1", "-pix_fmt", "rgba", png] }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.currentDirectoryURL = dir
        p.arguments = args
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) : nil
    }

    /// ms per frame of ffmpeg over `KernelBench.frameCount` main frames, with `filter` joining
    /// input 0 (the raw main, looped) and input 1 (the overlay PNG), or main alone with nil.
    static func ffmpeg(main: String, _ format: PixelFormat, overlay: String, filter: String?, threads: Int, dir: URL) -> KernelBench.Cost {
        if ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_OURS_ONLY"] != nil { return .none }
        let w = KernelBench.width, h = KernelBench.height
        var args = ["ffmpeg", "-v", "error", "-nostdin", "-threads", "\(threads)", "-filter_threads", "\(threads)",
                    "-stream_loop", "\(KernelBench.frameCount / KernelBench.distinctFrames - 1)",
                    "-f", "rawvideo", "-pix_fmt", format.ffmpegName, "-s", "\(w)x\(h)", "-i", main, "-i", overlay]
        args += filter.map { ["-filter_complex", $0] } ?? ["-map", "0:v"]
        args += ["-threads", "\(threads)", "-f", "null", "-"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.currentDirectoryURL = dir
        p.arguments = args
        let start = KernelBench.now(), startCPU = KernelBench.cpu(children: true)
        do { try p.run() } catch { return .none }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return .none }
        let n = Double(KernelBench.frameCount)
        return KernelBench.Cost(wall: (KernelBench.now() - start) / n, cpu: (KernelBench.cpu(children: true) - startCPU) / n)
    }

    static func run() {
        let cores = RowBands.coreCount
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediagraph-overlaybench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let w = KernelBench.width, h = KernelBench.height, n = KernelBench.distinctFrames
        let alpha = "geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,20),0,if(gt(X,W-20),255,mod(X+2*Y,256)))'"
        guard let yuvRaw = make("testsrc2=size=\(w)x\(h):rate=30", frames: n, pixfmt: "yuv420p", name: "main.yuv420p", dir: dir),
              let rgbaRaw = make("testsrc2=size=\(w)x\(h):rate=30", frames: n, pixfmt: "rgba", name: "main.rgba", dir: dir),
              let logoRaw = make("testsrc2=size=300x100,format=rgba,\(alpha)", frames: 1, pixfmt: "rgba", name: "logo.rgba", png: "logo.png", dir: dir),
              let bigRaw = make("mandelbrot=size=\(w)x\(h),format=rgba,\(alpha)", frames: 1, pixfmt: "rgba", name: "big.rgba", png: "big.png", dir: dir)
        else {
            print("overlay: ffmpeg could not make the inputs; is ffmpeg on PATH?")
            return
        }
        let yuv = KernelBench.FrameSet(format: .yuv420p, raw: yuvRaw, count: n)
        let rgba = KernelBench.FrameSet(format: .rgba, raw: rgbaRaw, count: n)
        let logo = Picture(raw: logoRaw, width: 300, height: 100)
        let big = Picture(raw: bigRaw, width: w, height: h)
        let color = OverlayColor(matrix: .bt601, fullRange: false)

        print("1920x1080 main, \(KernelBench.frameCount) frames (\(n) distinct testsrc2 frames cycled), ms/frame, blended in place;"
            + " CPU ms/frame / wall ms/frame (the machine is shared: other jobs run, so CPU time is the fairer figure).")
        print("ffmpeg net = ffmpeg with the overlay less the same command without it (reading the raw main and the PNG).")
        print("")
        let header = ["case", "threads", "ours", "ffmpeg net", "ffmpeg net/ours (CPU)", "ffmpeg filter"]
        var table: [[String]] = []
        let cases: [(String, KernelBench.FrameSet, Picture, String, Int, Int, String)] = [
            ("300x100 rgba logo over yuv420p", yuv, logo, "logo.png", w - 310, h - 110, "[0][1]overlay=W-w-10:H-h-10:format=yuv420"),
            ("1080p rgba over rgba", rgba, big, "big.png", 0, 0, "[0][1]overlay=0:0:format=rgb"),
        ]
        for (name, set, picture, png, x, y, filter) in cases {
            for threads in [1, cores] {
                let kernel = OverlayKernel(alpha: .straight, color: color)
                let ours = KernelBench.time(set) { i in
                    try? kernel.blend(picture.planes, onto: set.frames[i], x: x, y: y, threads: threads)
                }
                let format = set.frames[0].format
                let base = ffmpeg(main: "main.\(format)", format, overlay: png, filter: nil, threads: threads, dir: dir)
                let full = ffmpeg(main: "main.\(format)", format, overlay: png, filter: filter, threads: threads, dir: dir)
                let net = full - base
                table.append([name, "\(threads)", KernelBench.fmt(ours), KernelBench.fmt(net), String(format: "%.1fx", net.cpu / ours.cpu), "`\(filter)`"])
            }
        }
        KernelBench.printTable(header, table)
    }

    /// An RGBA picture in 64-byte aligned rows.
    final class Picture {
        let planes: FramePlanes
        private let block: UnsafeMutableRawPointer
        init(raw: Data, width: Int, height: Int) {
            let stride = (width * 4 + 63) & ~63
            block = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
            let base = block.assumingMemoryBound(to: UInt8.self)
            raw.withUnsafeBytes { r in
                for y in 0..<height {
                    (base + y * stride).update(from: r.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width * 4, count: width * 4)
                }
            }
            planes = FramePlanes(format: .rgba, width: width, height: height, data0: base, stride0: stride)
        }
        deinit { block.deallocate() }
    }
}
