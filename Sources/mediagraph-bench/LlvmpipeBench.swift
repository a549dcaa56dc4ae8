// Benchmark area "shader-llvmpipe": GPUImage's shaders that sample at computed coordinates or at
// neighbours (Swirl, BulgeDistortion, KuwaharaRadius3, Sobel, Toon, Vignette) at 1080p rgba,
// our shader kernel against Mesa's llvmpipe (an LLVM JIT running the same GLSL ES on the CPU)
// in the same run, on one and two threads. Both stream: they cycle through 8 distinct input
// frames (66 MB, far beyond the caches) into 8 output frames, as a graph hands them over.
// llvmpipe does a full upload, draw and readback per frame (what a GPU filter on CPU frames
// costs); it runs in a child process per thread count, since LP_NUM_THREADS is read when the
// EGL display opens. Without libEGL/libGLESv2 (Debian: libegl-mesa0, libgles2) its rows say why.
// With SHADER_LLVMPIPE_GPUIMAGE=<a GPUImage checkout>/framework/Source it runs every one- and two-input
// fragment shader of that checkout instead (GPUImageShaders), and says which are behind.
import CGLESHarness
import Foundation
import MediaGraphCore
import MediaGraphShader

enum LlvmpipeBench {
    static let area = BenchArea(name: "shader-llvmpipe", run: run)
    static let width = 1920, height = 1080
    static let inputFrames = 8
    /// Each row runs at least this many frames and at least `minimumSeconds`, at most `maximumFrames`.
    static let minimumFrames = 8, maximumFrames = 64
    static let minimumSeconds = Double(ProcessInfo.processInfo.environment["SHADER_LLVMPIPE_SECONDS"] ?? "") ?? 1.5
    static let gpuImageDirectory = ProcessInfo.processInfo.environment["SHADER_LLVMPIPE_GPUIMAGE"].map { URL(fileURLWithPath: $0) }

    /// One shader: its fragment text (GPUImage's maths; the same text runs on both), its
    /// uniforms, and whether it needs GPUImage's 3x3 vertex shader (neighbour varyings).
    struct Case {
        let name: String
        let fragment: String
        let uniforms: [(String, [Float])]
        /// The filter's own vertex shader; nil for GPUImage's pass-through or 3x3 one.
        var vertex: String? = nil
        var neighbours: Bool { fragment.contains("leftTextureCoordinate") }

        /// The shader compiled here (with its vertex shader when it has one).
        func program() throws -> ShaderProgram {
            if let vertex {
                return try ShaderProgram(source: fragment, fileName: name + ".glsl", vertexSource: vertex, vertexFileName: name + ".vert")
            }
            return try ShaderProgram(source: fragment, fileName: name + ".glsl")
        }

        /// The uniform values as the shader node takes them, typed by the declarations
        /// (imageSize and the texel sizes come from the frame).
        func values(_ program: ShaderProgram) -> [String: ShaderUniformValue] {
            var out: [String: ShaderUniformValue] = [:]
            for u in program.uniforms {
                guard let v = uniforms.first(where: { $0.0 == u.name })?.1 else { continue }
                switch u.type.scalar {
                case .bool: out[u.name] = v.count == 1 ? .bool(v[0] != 0) : .array(v.map { .bool($0 != 0) })
                default: out[u.name] = v.count == 1 ? .number(Double(v[0])) : .array(v.map { .number(Double($0)) })
                }
            }
            return out
        }
    }

    /// The six shaders, or with SHADER_LLVMPIPE_GPUIMAGE=<GPUImage checkout>/framework/Source
    /// every one- and two-input fragment shader of that checkout (`GPUImageShaders`).
    static func cases() -> [Case] {
        if let dir = gpuImageDirectory { return GPUImageShaders.survey(directory: dir, width: width, height: height).cases }
        let shaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Graphs/shaders")
        func file(_ name: String) -> String {
            (try? String(contentsOf: shaders.appendingPathComponent(name + ".glsl"), encoding: .utf8)) ?? ""
        }
        return [
            Case(name: "Swirl", fragment: file("swirl"), uniforms: [("center", [0.5, 0.5]), ("radius", [0.5]), ("angle", [1.0])]),
            Case(name: "BulgeDistortion", fragment: file("bulge"),
                 uniforms: [("center", [0.5, 0.5]), ("radius", [0.25]), ("scale", [0.5]),
                            ("imageSize", [Float(width), Float(height)])]),
            Case(name: "KuwaharaRadius3", fragment: kuwaharaRadius3, uniforms: []),
            Case(name: "Sobel", fragment: file("sobel"), uniforms: [("edgeStrength", [1.0])]),
            Case(name: "Toon", fragment: toon, uniforms: [("threshold", [0.2]), ("quantizationLevels", [10.0])]),
            Case(name: "Vignette", fragment: file("vignette"),
                 uniforms: [("vignetteCenter", [0.5, 0.5]), ("vignetteColor", [0, 0, 0]),
                            ("vignetteStart", [0.3]), ("vignetteEnd", [0.75])]),
        ]
    }

    /// GPUImage's Kuwahara of radius 3, unrolled as GPUImage ships it: 49 taps at offsets scaled
    /// by a constant (1/768, 1/1024: not the frame's texel size, so at 1080p every tap is a
    /// bilinear sample at a computed coordinate), each added to the quadrants (of 16 taps) it
    /// lies in, then the mean of the quadrant of least variance.
    static let kuwaharaRadius3: String = {
        var s = """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        precision highp float;
        const vec2 src_size = vec2(1.0 / 768.0, 1.0 / 1024.0);
        void main() {
            vec2 uv = textureCoordinate;
            float n = 16.0;
            vec3 m0 = vec3(0.0); vec3 m1 = vec3(0.0); vec3 m2 = vec3(0.0); vec3 m3 = vec3(0.0);
            vec3 s0 = vec3(0.0); vec3 s1 = vec3(0.0); vec3 s2 = vec3(0.0); vec3 s3 = vec3(0.0);
            vec3 c; vec3 cSq;

        """
        for i in -3...3 {
            for j in -3...3 {
                s += "    c = texture2D(inputImageTexture, uv + vec2(\(i), \(j)) * src_size).rgb;\n    cSq = c * c;\n"
                if i <= 0 && j <= 0 { s += "    m0 += c; s0 += cSq;\n" }
                if i <= 0 && j >= 0 { s += "    m1 += c; s1 += cSq;\n" }
                if i >= 0 && j >= 0 { s += "    m2 += c; s2 += cSq;\n" }
                if i >= 0 && j <= 0 { s += "    m3 += c; s3 += cSq;\n" }
            }
        }
        s += "    float min_sigma2 = 1e+2;\n    float sigma2;\n"
        for q in 0..<4 {
            s += """
                m\(q) /= n;
                s\(q) = abs(s\(q) / n - m\(q) * m\(q));
                sigma2 = s\(q).r + s\(q).g + s\(q).b;
                if (sigma2 < min_sigma2) { min_sigma2 = sigma2; gl_FragColor = vec4(m\(q), 1.0); }

            """
        }
        return s + "}\n"
    }()

    /// GPUImage's Toon: Sobel magnitude on the red channel of the 3x3 neighbours, black where it
    /// passes `threshold`, elsewhere the colour posterised to `quantizationLevels`.
    static let toon = """
    precision highp float;
    varying vec2 textureCoordinate;
    varying vec2 leftTextureCoordinate;
    varying vec2 rightTextureCoordinate;
    varying vec2 topTextureCoordinate;
    varying vec2 topLeftTextureCoordinate;
    varying vec2 topRightTextureCoordinate;
    varying vec2 bottomTextureCoordinate;
    varying vec2 bottomLeftTextureCoordinate;
    varying vec2 bottomRightTextureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform highp float threshold;
    uniform highp float quantizationLevels;
    void main() {
        vec4 color = texture2D(inputImageTexture, textureCoordinate);
        float bl = texture2D(inputImageTexture, bottomLeftTextureCoordinate).r;
        float tr = texture2D(inputImageTexture, topRightTextureCoordinate).r;
        float tl = texture2D(inputImageTexture, topLeftTextureCoordinate).r;
        float br = texture2D(inputImageTexture, bottomRightTextureCoordinate).r;
        float l = texture2D(inputImageTexture, leftTextureCoordinate).r;
        float r = texture2D(inputImageTexture, rightTextureCoordinate).r;
        float b = texture2D(inputImageTexture, bottomTextureCoordinate).r;
        float t = texture2D(inputImageTexture, topTextureCoordinate).r;
        float h = -tl - 2.0 * t - tr + bl + 2.0 * b + br;
        float v = -bl - 2.0 * l - tl + br + 2.0 * r + tr;
        float mag = length(vec2(h, v));
        vec3 posterized = floor(color.rgb * quantizationLevels + 0.5) / quantizationLevels;
        gl_FragColor = vec4(posterized * (1.0 - step(threshold, mag)), color.a);
    }
    """

    /// The vertex shaders the GL side runs: GPUImage's pass-through, and its 3x3 sampling one
    /// (eight neighbour coordinates one texel away; "top" is the row above).
    static let plainVertex = """
    attribute vec4 position;
    attribute vec4 inputTextureCoordinate;
    varying vec2 textureCoordinate;
    void main() { gl_Position = position; textureCoordinate = inputTextureCoordinate.xy; }
    """
    static let neighbourVertex = """
    attribute vec4 position;
    attribute vec4 inputTextureCoordinate;
    uniform float texelWidth;
    uniform float texelHeight;
    varying vec2 textureCoordinate;
    varying vec2 leftTextureCoordinate;
    varying vec2 rightTextureCoordinate;
    varying vec2 topTextureCoordinate;
    varying vec2 topLeftTextureCoordinate;
    varying vec2 topRightTextureCoordinate;
    varying vec2 bottomTextureCoordinate;
    varying vec2 bottomLeftTextureCoordinate;
    varying vec2 bottomRightTextureCoordinate;
    void main() {
        gl_Position = position;
        vec2 dx = vec2(texelWidth, 0.0);
        vec2 dy = vec2(0.0, texelHeight);
        textureCoordinate = inputTextureCoordinate.xy;
        leftTextureCoordinate = inputTextureCoordinate.xy - dx;
        rightTextureCoordinate = inputTextureCoordinate.xy + dx;
        topTextureCoordinate = inputTextureCoordinate.xy - dy;
        topLeftTextureCoordinate = inputTextureCoordinate.xy - dy - dx;
        topRightTextureCoordinate = inputTextureCoordinate.xy - dy + dx;
        bottomTextureCoordinate = inputTextureCoordinate.xy + dy;
        bottomLeftTextureCoordinate = inputTextureCoordinate.xy + dy - dx;
        bottomRightTextureCoordinate = inputTextureCoordinate.xy + dy + dx;
    }
    """

    /// Input and output frames, allocated once: `inputFrames` of each.
    final class Frames {
        let bytes = LlvmpipeBench.width * LlvmpipeBench.height * 4
        let inputs: [UnsafeMutablePointer<UInt8>]
        let outputs: [UnsafeMutablePointer<UInt8>]
        init?(raw: URL) {
            guard let data = try? Data(contentsOf: raw), data.count == bytes * LlvmpipeBench.inputFrames else { return nil }
            let n = bytes
            inputs = (0..<LlvmpipeBench.inputFrames).map { k in
                let p = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
                data.withUnsafeBytes { p.initialize(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + k * n, count: n) }
                return p
            }
            outputs = (0..<LlvmpipeBench.inputFrames).map { _ in
                let p = UnsafeMutablePointer<UInt8>.allocate(capacity: n)
                p.initialize(repeating: 0, count: n)
                return p
            }
        }
        deinit { for p in inputs + outputs { p.deallocate() } }
        func planes(_ p: UnsafeMutablePointer<UInt8>) -> FramePlanes {
            FramePlanes(format: .rgba, width: LlvmpipeBench.width, height: LlvmpipeBench.height, data0: p, stride0: LlvmpipeBench.width * 4)
        }
    }

    /// Runs `frame(k)` for k = 0, 1, ... (at least `minimumFrames` and `minimumSeconds`) after
    /// one warm-up frame; ms per frame, wall and CPU.
    static func measure(_ frame: (Int) -> Bool) -> ShaderBench.Timing? {
        guard frame(0) else { return nil }
        let cpu0 = ShaderBench.cpuSeconds(RUSAGE_SELF.rawValue)
        let start = DispatchTime.now().uptimeNanoseconds
        var n = 0
        var elapsed = 0.0
        while n < maximumFrames && (n < minimumFrames || elapsed < minimumSeconds) {
            guard frame(n + 1) else { return nil }
            n += 1
            elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let cpu = ShaderBench.cpuSeconds(RUSAGE_SELF.rawValue) - cpu0
        return ShaderBench.Timing(wall: elapsed / Double(n) * 1000, cpu: cpu / Double(n) * 1000)
    }

    static func run() {
        let args = CommandLine.arguments
        if let at = args.firstIndex(of: "--llvmpipe-child"), at + 2 < args.count {
            child(dir: URL(fileURLWithPath: args[at + 1]), threads: Int(args[at + 2]) ?? 1)
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("llvmpipe-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // SHADER_LLVMPIPE_KEEP=1 keeps the input and both sides' frame 0 (to look at a difference).
        let keep = ProcessInfo.processInfo.environment["SHADER_LLVMPIPE_KEEP"] == "1"
        defer { if keep { print("frames kept in \(dir.path)") } else { try? FileManager.default.removeItem(at: dir) } }
        let raw = dir.appendingPathComponent("in.rgba")
        guard ShaderBench.shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=25",
                                 "-frames:v", "\(inputFrames)", "-pix_fmt", "rgba", "-f", "rawvideo", raw.path]) != nil,
              let frames = Frames(raw: raw) else {
            print("shader-llvmpipe: ffmpeg could not make the input frames; skipped")
            return
        }
        // SHADER_LLVMPIPE_ONLY=Swirl,Toon runs those rows only; SHADER_LLVMPIPE_NO_GL=1 skips
        // llvmpipe (quick runs while tuning the kernel).
        let env = ProcessInfo.processInfo.environment
        let only = Set((env["SHADER_LLVMPIPE_ONLY"] ?? "").split(separator: ",").map(String.init))
        let all = cases().filter { only.isEmpty || only.contains($0.name) }
        // Ours, in this process.
        var ours: [String: [Int: ShaderBench.Timing]] = [:]
        for c in all {
            do {
                let program = try c.program()
                let kernel = ShaderKernel(program: try program.bind(uniforms: c.values(program)))
                // A second input (GPUImage's two-input filters) is frame k + 1 of the cycle beside frame k.
                let twoInputs = program.inputCount > 1
                func sources(_ i: Int) -> [FramePlanes] {
                    [frames.planes(frames.inputs[i])] + (twoInputs ? [frames.planes(frames.inputs[(i + 1) % inputFrames])] : [])
                }
                for threads in [1, 2] {
                    ours[c.name, default: [:]][threads] = measure { k in
                        let i = k % inputFrames
                        return (try? kernel.run(sources: sources(i), destination: frames.planes(frames.outputs[i]), threads: threads)) != nil
                    }
                }
                // Frame 0's output, to compare with llvmpipe's.
                try kernel.run(sources: sources(0), destination: frames.planes(frames.outputs[0]), threads: 0)
                try Data(bytes: frames.outputs[0], count: frames.bytes).write(to: dir.appendingPathComponent("ours-\(c.name).rgba"))
            } catch {
                print("shader-llvmpipe \(c.name): \(error)")
            }
        }
        // A hand-written kernel of Swirl (the factor the compiler leaves), one thread.
        let handSwirl = only.isEmpty || only.contains("Swirl") ? measure { k in
            let i = k % inputFrames
            handWrittenSwirl(frames.inputs[i], frames.outputs[i], center: (0.5, 0.5), radius: 0.5, angle: 1.0)
            return true
        } : nil
        // llvmpipe, one child process per thread count.
        var theirs: [String: [Int: ShaderBench.Timing]] = [:]
        var renderer = ""
        var glErrors: [String: String] = [:]
        var skipped: String?
        for threads in [1, 2] where env["SHADER_LLVMPIPE_NO_GL"] != "1" {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            p.arguments = ["shader-llvmpipe", "--llvmpipe-child", dir.path, "\(threads)"]
            var childEnv = env
            childEnv["EGL_PLATFORM"] = "surfaceless"
            childEnv["LP_NUM_THREADS"] = "\(threads)"
            childEnv["GALLIUM_DRIVER"] = "llvmpipe"
            p.environment = childEnv
            let out = Pipe()
            p.standardOutput = out
            do { try p.run() } catch { skipped = "could not start the llvmpipe child: \(error)"; break }
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            for line in text.split(separator: "\n") {
                let f = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard f.count == 2 else { continue }
                switch f[0] {
                case "renderer": renderer = f[1]
                case "skip": skipped = f[1]
                case let name where name.hasSuffix("-error"):
                    // Printed once, after the table (the child runs per thread count).
                    glErrors[String(name.dropLast("-error".count))] = f[1]
                default:
                    let v = f[1].split(separator: " ").compactMap { Double($0) }
                    if v.count == 2 { theirs[f[0], default: [:]][threads] = ShaderBench.Timing(wall: v[0], cpu: v[1]) }
                }
            }
            if skipped != nil { break }
        }

        print("1080p rgba, \(inputFrames) distinct frames cycled (streamed, not in cache); ms per frame, wall and CPU (user+sys)")
        if env["SHADER_LLVMPIPE_NO_GL"] == "1" { skipped = "SHADER_LLVMPIPE_NO_GL=1" }
        print("llvmpipe: \(skipped.map { "skipped: \($0)" } ?? renderer), full upload/draw/readback per frame")
        print("shader             thr   ours wall    CPU   llvmpipe wall    CPU   llvmpipe/ours (CPU)   frame 0 vs llvmpipe")
        for c in all {
            let diff = compare(dir.appendingPathComponent("ours-\(c.name).rgba"), dir.appendingPathComponent("llvmpipe-\(c.name).rgba"))
            for threads in [1, 2] {
                let a = ours[c.name]?[threads], b = theirs[c.name]?[threads]
                func f(_ t: ShaderBench.Timing?) -> String { t.map { String(format: "%8.2f %8.2f", $0.wall, $0.cpu) } ?? "     n/a      n/a" }
                let ratio = a.flatMap { a in b.map { String(format: "%5.2fx (%5.2fx)", $0.wall / a.wall, $0.cpu / a.cpu) } } ?? "n/a"
                print("\(c.name.padding(toLength: 18, withPad: " ", startingAt: 0)) \(threads)  \(f(a))      \(f(b))   \(ratio.padding(toLength: 20, withPad: " ", startingAt: 0))  \(threads == 1 ? diff : "")")
            }
        }
        for (name, reason) in glErrors.sorted(by: { $0.key < $1.key }) { print("llvmpipe could not run \(name): \(reason.prefix(300))") }
        if let dir = gpuImageDirectory {
            let survey = GPUImageShaders.survey(directory: dir, width: width, height: height)
            print("GPUImage survey (\(dir.path)): \(survey.cases.count) shaders of one or two inputs run, \(survey.leftOut.count) left out")
            for (name, reason) in survey.leftOut { print("  left out \(name): \(reason)") }
            for threads in [1, 2] {
                var ahead = 0, measured = 0
                var behind: [String] = []
                for c in all {
                    guard let a = ours[c.name]?[threads], let b = theirs[c.name]?[threads] else { continue }
                    measured += 1
                    if b.wall >= a.wall { ahead += 1 } else { behind.append(String(format: "%@ %.2fx", c.name, b.wall / a.wall)) }
                }
                print("\(threads) thread(s): ours at least llvmpipe's speed (wall) on \(ahead) of \(measured)"
                      + (behind.isEmpty ? "" : "; behind: " + behind.joined(separator: ", ")))
            }
        }
        if let hand = handSwirl, let ours1 = ours["Swirl"]?[1] {
            print(String(format: "Swirl hand-written Swift kernel (1 thread): %.2f ms wall, %.2f ms CPU; ours / hand-written %.2fx (CPU)",
                         hand.wall, hand.cpu, ours1.cpu / hand.cpu))
        }
    }

    /// Swirl as a person would write it for this one shader: the same formula in Float per pixel,
    /// the rotation and bilinear sample (clamp to edge) inline, no interpreter; one thread.
    @inline(never)
    static func handWrittenSwirl(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                                 center: (Float, Float), radius: Float, angle: Float) {
        let w = Float(width), h = Float(height)
        let lastX = width - 1, lastY = height - 1
        for y in 0..<height {
            let v = (Float(y) + 0.5) / h
            for x in 0..<width {
                var u = (Float(x) + 0.5) / w, t = v
                let dx = u - center.0, dy = t - center.1
                let d = (dx * dx + dy * dy).squareRoot()
                if d < radius {
                    let p = (radius - d) / radius
                    let theta = p * p * angle * 8
                    let s = sin(theta), c = cos(theta)
                    u = dx * c - dy * s + center.0
                    t = dx * s + dy * c + center.1
                }
                let fx = max(-1, min(w, u * w - 0.5)), fy = max(-1, min(h, t * h - 0.5))
                let x0f = fx.rounded(.down), y0f = fy.rounded(.down)
                let ax = fx - x0f, ay = fy - y0f
                let x0 = Int(x0f), y0 = Int(y0f)
                let xa = min(max(x0, 0), lastX), xb = min(max(x0 + 1, 0), lastX)
                let ya = min(max(y0, 0), lastY), yb = min(max(y0 + 1, 0), lastY)
                let p00 = src + (ya * width + xa) * 4, p01 = src + (ya * width + xb) * 4
                let p10 = src + (yb * width + xa) * 4, p11 = src + (yb * width + xb) * 4
                let out = dst + (y * width + x) * 4
                for ch in 0..<4 {
                    let top = Float(p00[ch]) * (1 - ax) + Float(p01[ch]) * ax
                    let bottom = Float(p10[ch]) * (1 - ax) + Float(p11[ch]) * ax
                    out[ch] = UInt8(min(255, top * (1 - ay) + bottom * ay + 0.5))
                }
            }
        }
    }

    /// "max N, M% > 2" between two rgba frames (colour channels), or "" when either is missing.
    static func compare(_ a: URL, _ b: URL) -> String {
        guard let x = try? Data(contentsOf: a), let y = try? Data(contentsOf: b), x.count == y.count else { return "" }
        var maxDiff = 0, over = 0
        x.withUnsafeBytes { xa in
            y.withUnsafeBytes { ya in
                for p in 0..<(x.count / 4) {
                    var worst = 0
                    for ch in 0..<3 { worst = max(worst, abs(Int(xa[p * 4 + ch]) - Int(ya[p * 4 + ch]))) }
                    maxDiff = max(maxDiff, worst)
                    if worst > 2 { over += 1 }
                }
            }
        }
        return String(format: "max %d, %.2f%% of pixels > 2", maxDiff, 100 * Double(over) / Double(x.count / 4))
    }

    /// The llvmpipe side, in a child process (LP_NUM_THREADS set by the parent): prints
    /// "renderer R", then "NAME wall cpu" per shader, or "skip REASON".
    static func child(dir: URL, threads: Int) {
        guard let frames = Frames(raw: dir.appendingPathComponent("in.rgba")) else {
            print("skip the child could not read the input frames")
            return
        }
        var printedRenderer = false
        let only = Set((ProcessInfo.processInfo.environment["SHADER_LLVMPIPE_ONLY"] ?? "").split(separator: ",").map(String.init))
        for c in cases() where only.isEmpty || only.contains(c.name) {
            var error = [CChar](repeating: 0, count: 1024)
            let vertex = c.vertex ?? (c.neighbours ? neighbourVertex : plainVertex)
            guard let gl = mg_gles_create(Int32(width), Int32(height), vertex, c.fragment, &error, error.count) else {
                let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if reason.contains("compile") || reason.contains("link") {
                    print("\(c.name)-error \(reason)")
                    continue
                }
                print("skip \(reason)")
                fflush(nil)
                return
            }
            defer { mg_gles_destroy(gl) }
            if !printedRenderer {
                print("renderer \(String(cString: mg_gles_renderer(gl)))")
                printedRenderer = true
            }
            let program = try? c.program()
            let declared = program?.uniforms ?? []
            for (name, v) in c.uniforms {
                let type = declared.first { $0.name == name }?.type
                if let type, type.scalar == .int || type.scalar == .bool, v.count == 1 {
                    _ = mg_gles_uniform_int(gl, name, Int32(v[0]))
                } else if let type, type.columns > 1 {
                    _ = mg_gles_uniform_matrix(gl, name, Int32(type.columns), v)
                } else {
                    _ = mg_gles_uniform_float(gl, name, Int32(v.count), v)
                }
            }
            // What the shader node provides from the frame size (GPUImage's filters set the same).
            for name in ["texelWidth", "imageWidthFactor"] { _ = mg_gles_uniform_float(gl, name, 1, [1 / Float(width)]) }
            for name in ["texelHeight", "imageHeightFactor"] { _ = mg_gles_uniform_float(gl, name, 1, [1 / Float(height)]) }
            _ = mg_gles_uniform_float(gl, "imageSize", 2, [Float(width), Float(height)])
            let names = (program?.textureNames ?? []).map { $0 ?? "inputImageTexture" }
            if names.count > 1 && mg_gles_second_input(gl, names[0], names[1]) == 0 {
                print("\(c.name)-error no second input texture")
                continue
            }
            func frame(_ i: Int) -> Bool {
                names.count > 1 ? mg_gles_frame2(gl, frames.inputs[i], frames.inputs[(i + 1) % inputFrames], frames.outputs[i]) == 0
                    : mg_gles_frame(gl, frames.inputs[i], frames.outputs[i]) == 0
            }
            guard let t = measure({ k in frame(k % inputFrames) }) else {
                print("\(c.name)-error a frame failed")
                continue
            }
            print("\(c.name) \(t.wall) \(t.cpu)")
            if threads == 1, frame(0) {
                try? Data(bytes: frames.outputs[0], count: frames.bytes).write(to: dir.appendingPathComponent("llvmpipe-\(c.name).rgba"))
            }
            fflush(nil)
        }
    }
}
