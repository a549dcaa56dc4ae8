// The "codecs" benchmark area: 1920x1080, 300 yuv420p frames (ffmpeg's testsrc2, written once
// to a raw file both sides read) → invert (255 - x) → encoder → elementary-stream file, ours
// against ffmpeg doing the same with its negate filter and identical encoder settings:
// H.264 (libx264 veryfast, crf 23) and VP9 (libvpx realtime, cpu-used 8, row-mt, crf 32).
// Each side runs as its own process under /usr/bin/time, which reports wall time and peak
// resident memory the same way for both; ours is this executable re-run with a job variable.
import Foundation
import MediaGraphCodecs
import MediaGraphCore

enum CodecBench {
    static let width = 1920, height = 1080, frames = 300, rate = 30
    static let jobVariable = "MG_CODECS_BENCH_JOB"

    static func run() {
        if let job = ProcessInfo.processInfo.environment[jobVariable] {
            runJob(job)
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mg-codec-bench-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.yuv").path
        guard shell(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                     "testsrc2=size=\(width)x\(height):rate=\(rate):duration=\(frames / rate)",
                     "-pix_fmt", "yuv420p", "-f", "rawvideo", input]) != nil else {
            print("could not generate the input with ffmpeg")
            return
        }
        let rawInput = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-framerate", "\(rate)", "-i", input]
        let cases: [(name: String, job: String, ext: String, ffmpeg: [String])] = [
            ("h264 veryfast crf 23", "h264", "h264",
             ["-vf", "negate", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-f", "h264"]),
            ("vp9 realtime cpu-used 8 row-mt", "vp9", "ivf",
             ["-vf", "negate", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
              "-crf", "32", "-b:v", "0", "-f", "ivf"]),
        ]
        print("\(width)x\(height), \(frames) frames yuv420p, invert → encoder → file; wall s, CPU s (user+sys), peak RSS MiB (/usr/bin/time)")
        for c in cases {
            for round in 1...3 {
                let ours = dir.appendingPathComponent("ours.\(c.ext)").path
                let theirs = dir.appendingPathComponent("ffmpeg.\(c.ext)").path
                let self_ = URL(fileURLWithPath: CommandLine.arguments[0]).path
                let a = timed([self_, "codecs"], environment: [jobVariable: "\(c.job)|\(input)|\(ours)"])
                let b = timed(["ffmpeg", "-v", "error", "-y"] + rawInput + c.ffmpeg + [theirs])
                let same = sameEncodedFrames(ours, theirs, ivf: c.ext == "ivf")
                func show(_ m: Measure?) -> String {
                    m.map { String(format: "%6.2f s wall %6.2f s CPU %7.1f MiB", $0.wall, $0.cpu, $0.peakMiB) } ?? "failed"
                }
                let ratio = a.flatMap { x in b.map { String(format: "wall %.2fx CPU %.2fx", x.wall / $0.wall, x.cpu / $0.cpu) } } ?? "-"
                print("\(c.name) [\(round)]: ours \(show(a)) | ffmpeg \(show(b)) | ours/ffmpeg \(ratio) | same output: \(same)")
            }
        }
    }

    struct Measure {
        var wall: Double, cpu: Double, peakMiB: Double
    }

    /// Runs a command under /usr/bin/time: wall seconds, user+system CPU seconds, peak RSS.
    static func timed(_ command: [String], environment: [String: String] = [:]) -> Measure? {
        guard let err = shell(["/usr/bin/time", "-f", "MGTIME %e %U %S %M"] + command, environment: environment, wantStderr: true) else { return nil }
        guard let line = err.split(separator: "\n").last(where: { $0.hasPrefix("MGTIME ") }) else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 5, let wall = Double(parts[1]), let user = Double(parts[2]), let sys = Double(parts[3]),
              let kb = Double(parts[4]) else { return nil }
        return Measure(wall: wall, cpu: user + sys, peakMiB: kb / 1024)
    }

    @discardableResult
    static func shell(_ command: [String], environment: [String: String] = [:], wantStderr: Bool = false) -> String? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = command
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let errPipe = Pipe()
        p.standardError = errPipe
        p.standardOutput = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        let data = errPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0 else {
            print("  \(command.first ?? "") failed: \(text.suffix(400))")
            return nil
        }
        return wantStderr ? text : ""
    }

    static func sameEncodedFrames(_ a: String, _ b: String, ivf: Bool) -> String {
        guard let x = FileManager.default.contents(atPath: a), let y = FileManager.default.contents(atPath: b) else { return "missing" }
        if !ivf { return x == y ? "yes (identical files)" : "no" }
        // IVF headers differ in their frame-count field only; compare from the first frame on.
        return x.count == y.count && x.dropFirst(32) == y.dropFirst(32) ? "yes (identical frames)" : "no"
    }

    // MARK: our side (child process)

    /// Read → invert on one thread, encode → write on another, meeting at a queue of four
    /// frames: the filter runs beside the encoder, as the graph's scheduler would place them.
    static func runJob(_ job: String) {
        let parts = job.split(separator: "|").map(String.init)
        guard parts.count == 3, let input = fopen(parts[1], "rb"), let output = fopen(parts[2], "wb") else {
            FileHandle.standardError.write(Data(("bad job \(job)\n").utf8))
            exit(1)
        }
        let frameBytes = width * height * 3 / 2
        let slots = 4
        let buffers = (0..<slots).map { _ in
            UnsafeMutableRawPointer.allocate(byteCount: frameBytes, alignment: 64).assumingMemoryBound(to: UInt8.self)
        }
        let free = DispatchSemaphore(value: slots), filled = DispatchSemaphore(value: 0)
        /// The reader thread's view of the buffers and the file. `@unchecked Sendable` because they
        /// are C pointers: the semaphores hand each buffer back and forth, one thread at a time.
        final class Shared: @unchecked Sendable {
            let buffers: [UnsafeMutablePointer<UInt8>]
            let input: UnsafeMutablePointer<FILE>
            init(_ b: [UnsafeMutablePointer<UInt8>], _ i: UnsafeMutablePointer<FILE>) { buffers = b; input = i }
        }
        let shared = Shared(buffers, input)
        let reader = Thread {
            for i in 0..<frames {
                free.wait()
                let buffer = shared.buffers[i % slots]
                guard fread(buffer, 1, frameBytes, shared.input) == frameBytes else { FileHandle.standardError.write(Data(("short input\n").utf8)); exit(1) }
                invert(buffer, count: frameBytes)
                filled.signal()
            }
        }
        reader.start()

        do {
            let encoder: any VideoEncoder
            let timeBase = Rational(1, Int64(rate)), frameRate = Rational(Int64(rate), 1)
            let isVP9 = parts[0] == "vp9"
            if isVP9 {
                encoder = try VP9Encoder(settings: VPXSettings(cqLevel: 32, deadline: "realtime", cpuUsed: 8, rowMT: true),
                                         width: width, height: height, timeBase: timeBase, frameRate: frameRate)
                writeIVFHeader(output)
            } else {
                encoder = try H264Encoder(settings: H264Settings(preset: "veryfast", crf: 23),
                                          width: width, height: height, timeBase: timeBase, frameRate: frameRate)
            }
            func write(_ packets: [EncodedPacket]) {
                for p in packets {
                    if isVP9 { writeIVFFrameHeader(output, size: p.data.count, pts: p.pts) }
                    _ = p.data.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, output) }
                }
            }
            let uvSize = (width / 2) * (height / 2)
            for i in 0..<frames {
                filled.wait()
                let y = buffers[i % slots]
                let planes = FramePlanes(format: .yuv420p, width: width, height: height,
                                         data0: y, stride0: width,
                                         data1: y + width * height, stride1: width / 2,
                                         data2: y + width * height + uvSize, stride2: width / 2)
                write(try encoder.encode(planes, pts: Int64(i)))
                free.signal()
            }
            write(try encoder.flush())
        } catch {
            FileHandle.standardError.write(Data(("\(error)\n").utf8))
            exit(1)
        }
        fclose(output)
        fclose(input)
    }

    /// 255 - x is ~x for bytes: eight at a time.
    static func invert(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        let words = UnsafeMutableRawPointer(p).assumingMemoryBound(to: UInt64.self)
        for i in 0..<(count / 8) { words[i] = ~words[i] }
        for i in (count / 8 * 8)..<count { p[i] = ~p[i] }
    }

    static func writeIVFHeader(_ f: UnsafeMutablePointer<FILE>) {
        var h = [UInt8]("DKIF".utf8) + le(0, 2) + le(32, 2) + [UInt8]("VP90".utf8) + le(width, 2) + le(height, 2)
        h += le(rate, 4) + le(1, 4) + le(frames, 4) + le(0, 4)
        _ = h.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    }

    static func writeIVFFrameHeader(_ f: UnsafeMutablePointer<FILE>, size: Int, pts: Int64) {
        let h = le(size, 4) + le(Int(pts), 8)
        _ = h.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
    }

    static func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 0xff) } }
}
