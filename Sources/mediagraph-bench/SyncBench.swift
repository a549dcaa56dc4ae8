// Benchmark area "sync": what the engine's video synchroniser costs per frame per input, and a
// 1080p two-input blend through the shader kernel against ffmpeg's `blend` at the same thread
// count, on the same frames in the same run.
import Foundation
import MediaGraphCore
import MediaGraphShader

enum SyncBench {
    static let area = BenchArea(name: "sync", run: run)

    static func run() {
        synchroniserCost()
        blend()
    }

    /// Frames through `VideoSynchronizer` (2 and 4 inputs, one at 25 fps against others at 30),
    /// emitting to a node that does nothing: the synchroniser's own cost.
    static func synchroniserCost() {
        print("synchroniser: ns per frame per input (frames made beforehand; the node does nothing)")
        for inputs in [2, 4] {
            let perInput = 20_000
            let rates: [Int64] = (0..<inputs).map { $0 == 0 ? 25 : 30 }
            let formats = rates.map { VideoFormat(pixelFormat: .gray, width: 2, height: 2, frameRate: Rational($0, 1)) }
            var frames: [[SampleBuffer]] = []
            for k in 0..<inputs {
                frames.append((0..<perInput).map { i in
                    var w = WritableBuffer(frame: formats[k], timeBase: Rational(1, rates[k]))
                    w.pts = Int64(i)
                    w.duration = 1
                    return w.freeze()
                })
            }
            guard let sync = try? VideoSynchronizer(formats: formats, names: (0..<inputs).map { "in\($0)" }, policy: SyncPolicy(end: .first)) else { return }
            var next = Array(repeating: 0, count: inputs)
            var emitted = 0
            let emit: (borrowing SyncedFrames) throws -> Void = { s in if s.has(0) { emitted += 1 } }
            var fed = 0
            let t = ShaderBench.time(frames: 1) {
                // as the engine does: the input the synchroniser asks for, else the one furthest behind
                while true {
                    let k = sync.preferredInput() ?? (0..<inputs).filter { next[$0] < perInput }.min { next[$0] < next[$1] } ?? -1
                    guard k >= 0, next[k] < perInput else { break }
                    try? sync.add(frames[k][next[k]], input: k, emit: emit)
                    next[k] += 1
                    fed += 1
                }
                try? sync.finish(emit: emit)
            }
            print(String(format: "  %d inputs: %d frames in, %d out: %.0f ns wall, %.0f ns CPU per frame per input",
                         inputs, fed, emitted, t.wall * 1e6 / Double(fed), t.cpu * 1e6 / Double(fed)))
        }
    }

    /// `a * b` per channel (ffmpeg's multiply, which truncates where the shader rounds).
    static let multiply = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform sampler2D inputImageTexture2;
    void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate) * texture2D(inputImageTexture2, textureCoordinate); }
    """

    static func blend() {
        let width = 1920, height = 1080, frames = 100, ffmpegFrames = 50
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sync-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var planes: [FramePlanes] = []
        var memory: [UnsafeMutablePointer<UInt8>] = []
        defer { for m in memory { m.deallocate() } }
        for (name, pattern) in [("a", "testsrc2"), ("b", "rgbtestsrc")] {
            let raw = dir.appendingPathComponent("\(name).rgba"), gbrap = dir.appendingPathComponent("\(name).gbrap")
            guard ShaderBench.shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "\(pattern)=size=\(width)x\(height):rate=25",
                                     "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", raw.path]) != nil,
                  ShaderBench.shell(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-i", raw.path,
                                     "-pix_fmt", "gbrap", "-f", "rawvideo", gbrap.path]) != nil,
                  let data = try? Data(contentsOf: raw), data.count == width * height * 4 else {
                print("sync blend: ffmpeg could not make the input frames; skipped")
                return
            }
            let m = UnsafeMutablePointer<UInt8>.allocate(capacity: data.count)
            data.copyBytes(to: m, count: data.count)
            memory.append(m)
            planes.append(FramePlanes(format: .rgba, width: width, height: height, data0: m, stride0: width * 4))
        }
        let dst = UnsafeMutablePointer<UInt8>.allocate(capacity: width * height * 4)
        memory.append(dst)
        let output = FramePlanes(format: .rgba, width: width, height: height, data0: dst, stride0: width * 4)
        guard let program = try? ShaderProgram(source: multiply, fileName: "multiply.glsl").bind(uniforms: [:]) else { return }
        let kernel = ShaderKernel(program: program)
        func ours(_ threads: Int) -> ShaderBench.Timing {
            try? kernel.run(sources: planes, destination: output, threads: threads)
            return ShaderBench.time(frames: frames) { for _ in 0..<frames { try? kernel.run(sources: planes, destination: output, threads: threads) } }
        }
        // ffmpeg reads gbrap (blend's own planar format: no conversion in the timing)
        func ffmpeg(_ filter: String, threads: Int) -> ShaderBench.Timing? {
            var args = ["ffmpeg", "-v", "error", "-nostdin", "-filter_threads", "\(threads)"]
            for name in ["a", "b"] {
                args += ["-stream_loop", "\(ffmpegFrames - 1)", "-f", "rawvideo", "-pix_fmt", "gbrap", "-s", "\(width)x\(height)",
                         "-i", dir.appendingPathComponent("\(name).gbrap").path]
            }
            return ShaderBench.shell(args + ["-filter_complex", filter, "-f", "null", "-"], frames: ffmpegFrames)
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        func ms(_ v: ShaderBench.Timing?) -> String { v.map { String(format: "%8.2f %8.2f", $0.wall, $0.cpu) } ?? "     n/a      n/a" }
        func ratio(_ a: ShaderBench.Timing?, _ b: ShaderBench.Timing?) -> String {
            guard let a, let b, a.wall > 0, a.cpu > 0 else { return "n/a" }
            return String(format: "%5.2fx %5.2fx", b.wall / a.wall, b.cpu / a.cpu)
        }
        print("1080p two-input multiply blend, \(cores) cores; ours \(frames) frames, ffmpeg \(ffmpegFrames); ms per frame")
        print("what                                   wall ms   CPU ms   this/ffmpeg blend (wall, CPU)")
        for threads in [1, cores] {
            let null = ffmpeg("[0]null[x];[1]nullsink;[x]null", threads: threads)
            let theirs = ffmpeg("[0][1]blend=all_mode=multiply", threads: threads)
            let mine = ours(threads)
            print(String(format: "ffmpeg read 2 inputs, no filter (%dt)  ", threads) + ms(null) + "   (included in the blend row)")
            print(String(format: "ffmpeg blend multiply (%dt)            ", threads) + ms(theirs))
            print(String(format: "shader multiply, 2 inputs (%dt)        ", threads) + ms(mine) + "   " + ratio(theirs, mine))
        }
    }
}
