// Benchmark area "shader": shipped shaders on 1080p rgba against ffmpeg's geq (an expression
// interpreter per pixel) with equivalent expressions, on the same raw input in the same run,
// plus a plain per-pixel Swift loop for context.
import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphShader

enum ShaderBench {
    static let width = 1920, height = 1080
    static let frames = 300
    static let geqFrames = 20

    static func run() {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("shader-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("in.rgba")
        // One test-pattern frame; geq reads it `geqFrames` times (-stream_loop).
        guard shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=25",
                     "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", raw.path]) != nil,
              let data = try? Data(contentsOf: raw), data.count == width * height * 4 else {
            print("shader: ffmpeg could not make the input frame; skipped")
            return
        }
        let stride = width * 4
        let src = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count)
        let dst = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count)
        defer { src.deallocate(); dst.deallocate() }
        data.copyBytes(to: src, count: data.count)
        let input = FramePlanes(format: .rgba, width: width, height: height, data0: src, stride0: stride)
        let output = FramePlanes(format: .rgba, width: width, height: height, data0: dst, stride0: stride)

        let shaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Graphs/shaders")
        func shader(_ name: String, _ uniforms: [String: ShaderUniformValue], threads: Int, colorMaps: Bool = true) -> Timing? {
            do {
                let text = try String(contentsOf: shaders.appendingPathComponent(name + ".glsl"), encoding: .utf8)
                let kernel = ShaderKernel(program: try ShaderProgram(source: text, fileName: name + ".glsl").bind(uniforms: uniforms),
                                          colorMaps: colorMaps)
                try kernel.run(source: input, destination: output, threads: threads)  // warm-up
                return time(frames: frames) { for _ in 0..<frames { try? kernel.run(source: input, destination: output, threads: threads) } }
            } catch {
                print("shader \(name): \(error)")
                return nil
            }
        }
        let geqInvert = "geq=r='255-r(X,Y)':g='255-g(X,Y)':b='255-b(X,Y)':a='alpha(X,Y)'"
        let geqSepia = "geq=r='0.3588*r(X,Y)+0.7044*g(X,Y)+0.1368*b(X,Y)':g='0.2990*r(X,Y)+0.5870*g(X,Y)+0.1140*b(X,Y)'" +
                       ":b='0.2392*r(X,Y)+0.4696*g(X,Y)+0.0912*b(X,Y)':a='alpha(X,Y)'"
        func geq(_ filter: String) -> Timing? {
            let args = ["ffmpeg", "-v", "error", "-nostdin", "-stream_loop", "\(geqFrames - 1)", "-f", "rawvideo", "-pix_fmt", "rgba",
                        "-s", "\(width)x\(height)", "-i", raw.path, "-vf", filter, "-f", "null", "-"]
            return shell(args, frames: geqFrames)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // SHADER_BENCH_NO_GEQ=1 skips ffmpeg (quick runs while tuning the kernel).
        let skipGeq = ProcessInfo.processInfo.environment["SHADER_BENCH_NO_GEQ"] == "1"
        let geqI = skipGeq ? nil : geq(geqInvert), geqS = skipGeq ? nil : geq(geqSepia)
        let nullPass = skipGeq ? nil : geq("null")
        let inv = shader("invert", [:], threads: 0), inv1 = shader("invert", [:], threads: 1)
        let sep = shader("sepia", ["intensity": 1.0], threads: 0), sep1 = shader("sepia", ["intensity": 1.0], threads: 1)
        // The same two shaders through the general tile kernel (colour-map recognition off).
        let invGeneral1 = shader("invert", [:], threads: 1, colorMaps: false)
        let sepGeneral1 = shader("sepia", ["intensity": 1.0], threads: 1, colorMaps: false)
        let swirl = shader("swirl", ["center": [0.5, 0.5], "radius": 0.5, "angle": 1.2], threads: 0)
        let swirl1 = shader("swirl", ["center": [0.5, 0.5], "radius": 0.5, "angle": 1.2], threads: 1)
        // the built-in kernels of the same name, same frames (the target: shader within 3x)
        func builtin(_ run: @escaping (Int) throws -> Void, threads: Int) -> Timing? {
            try? run(threads)
            return time(frames: frames) { for _ in 0..<frames { try? run(threads) } }
        }
        let invertKernel = InvertKernel()
        let sepiaKernel = try? ColorMatrixKernel(.sepia(intensity: 1))
        let kInv = builtin({ try invertKernel.run(source: input, destination: output, threads: $0) }, threads: 0)
        let kInv1 = builtin({ try invertKernel.run(source: input, destination: output, threads: $0) }, threads: 1)
        let kSep = builtin({ try sepiaKernel?.run(source: input, destination: output, threads: $0) }, threads: 0)
        let kSep1 = builtin({ try sepiaKernel?.run(source: input, destination: output, threads: $0) }, threads: 1)
        let plainInvert: Timing? = time(frames: frames) { for _ in 0..<frames { plainLoopInvert(src, dst, count: width * height) } }
        let plainSepia: Timing? = time(frames: frames) { for _ in 0..<frames { plainLoopSepia(src, dst, count: width * height) } }

        // Wall time, and CPU time (all threads; ffmpeg's from its rusage) which a busy machine
        // disturbs less.
        func ms(_ v: Timing?) -> String {
            v.map { String(format: "%8.2f %8.2f", $0.wall, $0.cpu) } ?? "     n/a      n/a"
        }
        func ratio(_ a: Timing?, _ b: Timing?) -> String {
            guard let a = a, let b = b, b.wall > 0, b.cpu > 0 else { return "n/a" }
            return String(format: "%5.1fx %5.1fx", a.wall / b.wall, a.cpu / b.cpu)
        }
        print("1080p rgba, \(cores) cores; shaders \(frames) frames, geq \(geqFrames) frames; ms per frame")
        print("what                                   wall ms   CPU ms   geq/this (wall, CPU)")
        print("ffmpeg null (read raw, no filter)      \(ms(nullPass))   (included in the geq rows)")
        print("ffmpeg geq invert                      \(ms(geqI))")
        print("shader invert.glsl (all cores)         \(ms(inv))   \(ratio(geqI, inv))")
        print("shader invert.glsl (1 thread)          \(ms(inv1))   \(ratio(geqI, inv1))")
        print("plain Swift per-pixel invert loop (1t) \(ms(plainInvert))")
        print("ffmpeg geq sepia                       \(ms(geqS))")
        print("shader sepia.glsl (all cores)          \(ms(sep))   \(ratio(geqS, sep))")
        print("shader sepia.glsl (1 thread)           \(ms(sep1))   \(ratio(geqS, sep1))")
        print("plain Swift per-pixel sepia loop (1t)  \(ms(plainSepia))")
        print("built-in invert kernel (all cores)     \(ms(kInv))   shader/built-in \(ratio(inv, kInv))")
        print("built-in invert kernel (1 thread)      \(ms(kInv1))   shader/built-in \(ratio(inv1, kInv1))")
        print("built-in sepia kernel (all cores)      \(ms(kSep))   shader/built-in \(ratio(sep, kSep))")
        print("built-in sepia kernel (1 thread)       \(ms(kSep1))   shader/built-in \(ratio(sep1, kSep1))")
        print("invert.glsl, general kernel (1t)       \(ms(invGeneral1))   shader/built-in \(ratio(invGeneral1, kInv1))")
        print("sepia.glsl, general kernel (1t)        \(ms(sepGeneral1))   shader/built-in \(ratio(sepGeneral1, kSep1))")
        print("shader swirl.glsl (all cores)          \(ms(swirl))")
        print("shader swirl.glsl (1 thread)           \(ms(swirl1))")
    }

    /// The plain loop a person would write: one pixel at a time, bytes in, bytes out.
    @inline(never)
    static func plainLoopInvert(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count {
            dst[i * 4] = 255 - src[i * 4]
            dst[i * 4 + 1] = 255 - src[i * 4 + 1]
            dst[i * 4 + 2] = 255 - src[i * 4 + 2]
            dst[i * 4 + 3] = src[i * 4 + 3]
        }
    }

    @inline(never)
    static func plainLoopSepia(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, count: Int) {
        for i in 0..<count {
            let r = Float(src[i * 4]), g = Float(src[i * 4 + 1]), b = Float(src[i * 4 + 2])
            dst[i * 4] = UInt8(min(255, 0.3588 * r + 0.7044 * g + 0.1368 * b + 0.5))
            dst[i * 4 + 1] = UInt8(min(255, 0.2990 * r + 0.5870 * g + 0.1140 * b + 0.5))
            dst[i * 4 + 2] = UInt8(min(255, 0.2392 * r + 0.4696 * g + 0.0912 * b + 0.5))
            dst[i * 4 + 3] = src[i * 4 + 3]
        }
    }

    /// Milliseconds per frame: wall clock and CPU (user + system, all threads).
    struct Timing { var wall: Double; var cpu: Double }

    static func cpuSeconds(_ who: Int32) -> Double {
        var u = rusage()
        getrusage(who, &u)
        return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    }

    static func time(frames: Int, _ body: () -> Void) -> Timing {
        let cpu0 = cpuSeconds(RUSAGE_SELF.rawValue)
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = cpuSeconds(RUSAGE_SELF.rawValue) - cpu0
        return Timing(wall: wall / Double(frames) * 1000, cpu: cpu / Double(frames) * 1000)
    }

    /// Runs a command (found on PATH); its wall and CPU time per frame, nil if it failed.
    static func shell(_ args: [String], frames: Int = 1) -> Timing? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        let cpu0 = cpuSeconds(RUSAGE_CHILDREN.rawValue)
        let start = DispatchTime.now().uptimeNanoseconds
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { return nil }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = cpuSeconds(RUSAGE_CHILDREN.rawValue) - cpu0
        return Timing(wall: wall / Double(frames) * 1000, cpu: cpu / Double(frames) * 1000)
    }
}
