// The "kernels" benchmark area: our pixel kernels against ffmpeg's counterparts on the same raw
// 1920x1080 frames, one thread and all cores, plus memcpy as the bandwidth limit.
import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphNodes

enum KernelBench {
    static let width = 1920, height = 1080
    static let distinctFrames = 10
    static let frameCount = 300

    /// Frames of one format in 64-byte aligned rows, read from a raw file ffmpeg wrote.
    final class FrameSet {
        let frames: [FramePlanes]
        private var blocks: [UnsafeMutableRawPointer] = []

        init(format: PixelFormat, raw: Data, count: Int) {
            var frames: [FramePlanes] = []
            var offset = 0
            for _ in 0..<count {
                var data: [UnsafeMutablePointer<UInt8>] = []
                var strides: [Int] = []
                for p in 0..<format.planeCount {
                    let size = format.planeSize(p, width: KernelBench.width, height: KernelBench.height)
                    let rowBytes = size.width * format.bytesPerPixel(plane: p)
                    let stride = (rowBytes + 63) & ~63
                    let block = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height, alignment: 64)
                    blocks.append(block)
                    let base = block.assumingMemoryBound(to: UInt8.self)
                    raw.withUnsafeBytes { r in
                        for y in 0..<size.height {
                            (base + y * stride).update(from: r.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset,
                                                       count: rowBytes)
                            offset += rowBytes
                        }
                    }
                    data.append(base)
                    strides.append(stride)
                }
                frames.append(FramePlanes(format: format, width: KernelBench.width, height: KernelBench.height,
                                          data: data, strides: strides))
            }
            self.frames = frames
        }

        deinit { blocks.forEach { $0.deallocate() } }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

    /// CPU ms used so far by this process (all its threads) or by its waited-for children. The
    /// machine is shared, so CPU time is the fairer figure: it leaves out time spent waiting for
    /// a core.
    static func cpu(children: Bool = false) -> Double {
        var u = rusage()
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3
            + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3
    }

    /// Wall and CPU ms per frame.
    struct Cost {
        var wall: Double
        var cpu: Double
        static let none = Cost(wall: .nan, cpu: .nan)
        static func - (a: Cost, b: Cost) -> Cost { Cost(wall: a.wall - b.wall, cpu: a.cpu - b.cpu) }
    }

    /// ms per frame of `body` over `frameCount` frames cycling through the set (after one warm-up pass).
    static func time(_ set: FrameSet, _ body: (Int) throws -> Void) rethrows -> Cost {
        for i in 0..<set.frames.count { try body(i) }
        let start = now(), startCPU = cpu()
        for i in 0..<frameCount { try body(i % set.frames.count) }
        return Cost(wall: (now() - start) / Double(frameCount), cpu: (cpu() - startCPU) / Double(frameCount))
    }

    /// Wall-clock ms per frame of one ffmpeg run over `frameCount` frames of the raw input.
    static func ffmpeg(_ file: String, _ format: PixelFormat, _ filter: String, threads: Int, dir: URL) -> Cost {
        // MEDIAGRAPH_BENCH_OURS_ONLY=1 skips ffmpeg (for quick iterations on our side).
        if ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_OURS_ONLY"] != nil { return .none }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = dir
        process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-threads", "\(threads)", "-filter_threads", "\(threads)",
                             "-stream_loop", "\(frameCount / distinctFrames - 1)",
                             "-f", "rawvideo", "-pix_fmt", format.ffmpegName, "-s", "\(width)x\(height)", "-i", file,
                             "-vf", filter, "-threads", "\(threads)", "-f", "null", "-"]
        let start = now(), startCPU = cpu(children: true)
        do { try process.run() } catch { return .none }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return .none }
        return Cost(wall: (now() - start) / Double(frameCount), cpu: (cpu(children: true) - startCPU) / Double(frameCount))
    }

    static func makeInput(_ format: PixelFormat, dir: URL) -> Data? {
        let name = "in.\(format)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.currentDirectoryURL = dir
        process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i",
                             "testsrc2=size=\(width)x\(height):rate=30", "-frames:v", "\(distinctFrames)",
                             "-pix_fmt", format.ffmpegName, "-f", "rawvideo", name]
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return FileManager.default.contents(atPath: dir.appendingPathComponent(name).path)
    }

    struct Row {
        var name: String
        var ours: [Double]      // ms/frame, 1 thread and all cores
        var ffmpegFilter: String
        var ffmpegFormat: PixelFormat
    }

    static func run() {
        let cores = RowBands.coreCount
        let threadCounts = [1, cores]
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mediagraph-kernelbench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        guard let rgbaRaw = makeInput(.rgba, dir: dir), let yuvRaw = makeInput(.yuv420p, dir: dir) else {
            print("kernels: ffmpeg could not make the input frames; is ffmpeg on PATH?")
            return
        }
        let rgba = FrameSet(format: .rgba, raw: rgbaRaw, count: distinctFrames)
        let rgbaOut = FrameSet(format: .rgba, raw: rgbaRaw, count: distinctFrames)
        let yuv = FrameSet(format: .yuv420p, raw: yuvRaw, count: distinctFrames)
        let yuvOut = FrameSet(format: .yuv420p, raw: yuvRaw, count: distinctFrames)

        // A 33-point LUT with a non-trivial, smooth look.
        let lut = try! CubeLUT(size: 33) { c in
            SIMD3(pow(c.x, 1.2), c.y * 0.8 + c.z * 0.2, min(1, c.z * 1.1 + 0.05 * c.x))
        }
        var cube = "LUT_3D_SIZE 33\n"
        for v in lut.table { cube += "\(v.x) \(v.y) \(v.z)\n" }
        try? cube.write(to: dir.appendingPathComponent("bench.cube"), atomically: true, encoding: .utf8)

        let invert = InvertKernel()
        let grayscale = ColorMatrixKernel(try! ColorTransform.grayscale())
        let sepia = ColorMatrixKernel(try! ColorTransform.sepia())
        let contrastSaturation = ColorMatrixKernel(try! ColorTransform.contrast(1.2).then(.saturation(1.3)))
        let contrastOnly = ColorMatrixKernel(try! ColorTransform.contrast(1.2))
        let saturationOnly = ColorMatrixKernel(try! ColorTransform.saturation(1.3))
        let hue = ColorMatrixKernel(try! ColorTransform.hue(degrees: 30))
        // hue on Y'CbCr planes as the filter runs it on the bench's BT.601 (untagged) yuv420p frames
        let hueYUV = PlaneChromaKernel(PlaneChroma(try! .hue(degrees: 30, luma: YCbCrMatrix.bt601.lumaWeights), matrix: .bt601, fullRange: false)!)
        // sepia on the planes as the filter runs it on yuv420p (through R'G'B' per pixel, one pass)
        let sepiaYUV = PlaneColorChainKernel(PlaneColorChain([try! .sepia()], matrix: .bt601, fullRange: false))
        let gamma = ChannelCurvesKernel(try! ChannelCurves.gamma(1.5))
        // curves: a channel of its own each (the pair tables) and one master curve (one table)
        let vintage = ChannelCurvesKernel(try! CurvesFilter.curves(preset: "vintage"))
        let strongContrast = ChannelCurvesKernel(try! CurvesFilter.curves(preset: "strong_contrast"))
        let tetra = LUT3DKernel(lut, interpolation: .tetrahedral)
        let trilinear = LUT3DKernel(lut, interpolation: .trilinear)
        let s = "0.3588:0.7044:0.1368:0:0.2990:0.5870:0.1140:0:0.2392:0.4696:0.0912"
        // what the fusion makes of invert → sepia → contrast 0.8 → saturation 0.8 (the fusion bench's chain)
        let fusedChain = ColorChainKernel([ColorTransform.invert.then(try! .sepia()),
                                           try! ColorTransform.contrast(0.8).then(try! .saturation(0.8))])

        typealias Body = (FramePlanes, FramePlanes, Int) throws -> Void
        let cases: [(String, PixelFormat, String, Body)] = [
            ("invert rgba (copy)", .rgba, "negate", { try invert.run(source: $0, destination: $1, threads: $2) }),
            ("invert rgba (in place)", .rgba, "negate", { try invert.run(source: $1, destination: $1, threads: $2) }),
            ("invert yuv420p (copy)", .yuv420p, "negate", { try invert.run(source: $0, destination: $1, threads: $2) }),
            ("invert yuv420p (in place)", .yuv420p, "negate", { try invert.run(source: $1, destination: $1, threads: $2) }),
            ("grayscale", .rgba, "hue=s=0", { try grayscale.run(source: $0, destination: $1, threads: $2) }),
            ("sepia", .rgba, "colorchannelmixer=\(s)", { try sepia.run(source: $0, destination: $1, threads: $2) }),
            ("sepia (in place)", .rgba, "colorchannelmixer=\(s)", { try sepia.run(source: $1, destination: $1, threads: $2) }),
            // ffmpeg converts to RGB for colorchannelmixer (hidden) and here back, as a YUV output needs
            ("sepia yuv420p (in place)", .yuv420p, "colorchannelmixer=\(s),format=yuv420p",
             { try sepiaYUV.run(source: $1, destination: $1, threads: $2) }),
            ("contrast+saturation (one matrix)", .rgba, "eq=contrast=1.2:saturation=1.3",
             { try contrastSaturation.run(source: $0, destination: $1, threads: $2) }),
            ("contrast, then saturation (2 passes)", .rgba, "eq=contrast=1.2:saturation=1.3", {
                try contrastOnly.run(source: $0, destination: $1, threads: $2)
                try saturationOnly.run(source: $1, destination: $1, threads: $2)
            }),
            ("hue", .rgba, "hue=h=30", { try hue.run(source: $0, destination: $1, threads: $2) }),
            ("hue yuv420p (in place)", .yuv420p, "hue=h=30", { try hueYUV.run(source: $1, destination: $1, threads: $2) }),
            ("invert+sepia+contrast+saturation fused (in place)", .rgba, "negate,colorchannelmixer=\(s),eq=contrast=0.8:saturation=0.8",
             { try fusedChain.run(source: $1, destination: $1, threads: $2) }),
            ("gamma", .rgba, "lutrgb=r=gammaval(1.5):g=gammaval(1.5):b=gammaval(1.5)",
             { try gamma.run(source: $0, destination: $1, threads: $2) }),
            ("curves vintage", .rgba, "curves=preset=vintage", { try vintage.run(source: $0, destination: $1, threads: $2) }),
            ("curves strong_contrast", .rgba, "curves=preset=strong_contrast",
             { try strongContrast.run(source: $0, destination: $1, threads: $2) }),
            ("lut3d tetrahedral", .rgba, "lut3d=file=bench.cube:interp=tetrahedral",
             { try tetra.run(source: $0, destination: $1, threads: $2) }),
            ("lut3d trilinear", .rgba, "lut3d=file=bench.cube:interp=trilinear",
             { try trilinear.run(source: $0, destination: $1, threads: $2) }),
        ]

        func memcpyTime(_ set: FrameSet, _ out: FrameSet) -> Cost {
            time(set) { i in
                let a = set.frames[i], b = out.frames[i]
                for p in 0..<a.planeCount {
                    let bytes = a.stride(p) * a.planeSize(p).height
                    memcpy(b.data(p), a.data(p), bytes)
                }
            }
        }
        let memcpyRGBA = memcpyTime(rgba, rgbaOut), memcpyYUV = memcpyTime(yuv, yuvOut)
        var baseline: [String: Cost] = [:]
        for f in [PixelFormat.rgba, .yuv420p] {
            for t in threadCounts {
                baseline["\(f)\(t)"] = ffmpeg("in.\(f)", f, "null", threads: t, dir: dir)
            }
        }
        print("1920x1080, \(frameCount) frames (\(distinctFrames) distinct testsrc2 frames cycled), ms/frame; "
            + "ours: copy path (source -> another frame) unless marked in place.")
        print("Each figure is CPU ms/frame (all threads of the process) / wall ms/frame; ratios use CPU time on 1 thread "
            + "and wall time on \(cores) (the machine is shared).")
        print("memcpy (one thread): rgba \(fmt(memcpyRGBA)), yuv420p \(fmt(memcpyYUV)).")
        print("ffmpeg: whole command incl. reading the raw file; 'ffmpeg net' subtracts the same command with -vf null: "
            + "rgba \(fmt(baseline["rgba1"]!)) (1 thread) \(fmt(baseline["rgba\(cores)"]!)) (\(cores)), "
            + "yuv420p \(fmt(baseline["yuv420p1"]!)) \(fmt(baseline["yuv420p\(cores)"]!)).")
        print("")
        let header = ["kernel", "threads", "ours", "ffmpeg net", "ffmpeg net/ours", "ours vs memcpy", "ffmpeg filter"]
        var table: [[String]] = []
        // MEDIAGRAPH_BENCH_ONLY=sepia,lut3d keeps the cases whose name contains one of the words.
        let only = (ProcessInfo.processInfo.environment["MEDIAGRAPH_BENCH_ONLY"] ?? "").split(separator: ",").map(String.init)
        for (name, format, filter, body) in cases where only.isEmpty || only.contains(where: { name.contains($0) }) {
            let (src, dst) = format == .rgba ? (rgba, rgbaOut) : (yuv, yuvOut)
            let copy = format == .rgba ? memcpyRGBA : memcpyYUV
            for t in threadCounts {
                let ours = (try? time(src) { i in try body(src.frames[i], dst.frames[i], t) }) ?? .none
                let net = ffmpeg("in.\(format)", format, filter, threads: t, dir: dir) - baseline["\(format)\(t)"]!
                let ratio = t == 1 ? net.cpu / ours.cpu : net.wall / ours.wall
                let speed = t == 1 ? copy.cpu / ours.cpu : copy.wall / ours.wall
                table.append([name, "\(t)", fmt(ours), fmt(net), String(format: "%.1fx", ratio),
                              String(format: "%.0f%%", 100 * speed), filter + " (\(format))"])
            }
        }
        printTable(header, table)
    }

    static func fmt(_ c: Cost) -> String { fmt(c.cpu) + " / " + fmt(c.wall) }
    static func fmt(_ v: Double) -> String { v.isNaN ? "n/a" : String(format: "%.2f", v) }

    static func printTable(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        let widths = header.indices.map { c in all.map { $0[c].count }.max()! }
        func line(_ r: [String]) -> String {
            "| " + r.indices.map { $0 == 0 || $0 == r.count - 1 ? r[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0)
                : String(repeating: " ", count: widths[$0] - r[$0].count) + r[$0] }.joined(separator: " | ") + " |"
        }
        print(line(header))
        print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
        rows.forEach { print(line($0)) }
    }
}
