import Foundation
import MediaGraphCore

/// A yuv420p test picture with padded rows (stride > width), filled with a moving pattern that
/// encoders cannot predict trivially, so B-frames and rate control do real work.
final class TestFrame {
    let width: Int
    let height: Int
    let format: PixelFormat
    let strides: [Int]
    let planes: [UnsafeMutablePointer<UInt8>]
    let sizes: [(width: Int, height: Int)]

    /// `alignment` > 1 rounds strides up to it and aligns the planes (as the engine's pools do).
    init(format: PixelFormat = .yuv420p, width: Int, height: Int, padding: Int = 24, alignment: Int = 1) {
        self.width = width
        self.height = height
        self.format = format
        var s: [Int] = [], p: [UnsafeMutablePointer<UInt8>] = [], z: [(Int, Int)] = []
        for i in 0..<format.planeCount {
            let size = format.planeSize(i, width: width, height: height)
            let stride = (size.width * format.bytesPerPixel(plane: i) + padding + alignment - 1) / alignment * alignment
            let mem = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height, alignment: max(alignment, 16))
                .bindMemory(to: UInt8.self, capacity: stride * size.height)
            mem.initialize(repeating: 0xEE, count: stride * size.height)
            s.append(stride); p.append(mem); z.append(size)
        }
        strides = s; planes = p; sizes = z
    }

    deinit { planes.forEach { $0.deallocate() } }

    var framePlanes: FramePlanes {
        FramePlanes(format: format, width: width, height: height, data: planes, strides: strides)
    }

    /// Fills frame `index` of a deterministic moving pattern.
    func fill(index: Int) {
        var seed = UInt32(truncatingIfNeeded: index &* 2654435761 &+ 12345)
        for i in 0..<format.planeCount {
            let rowBytes = sizes[i].width * format.bytesPerPixel(plane: i)
            for y in 0..<sizes[i].height {
                let row = planes[i] + y * strides[i]
                for x in 0..<rowBytes {
                    seed = seed &* 1664525 &+ 1013904223
                    let wave = (x &+ 3 &* index &+ (y * (i + 1)) / 2) & 0xff
                    let noise = Int(seed >> 28)
                    row[x] = UInt8(truncatingIfNeeded: (i == 0 ? wave : 128 + (wave >> 2) - 32) + noise)
                }
            }
        }
    }

    /// The tightly packed bytes of the frame (as a raw video file holds it).
    func packed() -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<format.planeCount {
            let rowBytes = sizes[i].width * format.bytesPerPixel(plane: i)
            for y in 0..<sizes[i].height {
                out.append(contentsOf: UnsafeBufferPointer(start: planes[i] + y * strides[i], count: rowBytes))
            }
        }
        return out
    }
}

/// A fresh temporary directory, removed by `cleanUp`.
struct TempDir {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("mgcodecs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs ffmpeg/ffprobe (found on PATH).
@discardableResult
func runTool(_ name: String, _ arguments: [String]) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [name] + arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting so a chatty tool cannot block on a full pipe.
    let errBox = PipeData()
    let done = DispatchSemaphore(value: 0)
    let errHandle = err.fileHandleForReading
    Thread { errBox.data = errHandle.readDataToEndOfFile(); done.signal() }.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    done.wait()
    let errData = errBox.data
    return ToolResult(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func readFile(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// ffprobe's stream fields (codec_name, width, height, nb_read_frames …) as a dictionary.
func probeStream(_ path: String, extra: [String] = []) throws -> [String: String] {
    let r = try runTool("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "0", "-show_streams"] + extra + [path])
    var fields: [String: String] = [:]
    for line in r.stdout.split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
}

/// Packet pts/dts as ffprobe reads them.
func decodeErrors(_ path: String) throws -> String {
    let r = try runTool("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
    return r.stderr + (r.status == 0 ? "" : "exit \(r.status)")
}

/// Index of the first differing byte (or the shorter length), nil when equal. Keeps failure
/// output short: expectations on whole streams would print megabytes.
func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int? {
    let n = min(a.count, b.count)
    for i in 0..<n where a[i] != b[i] { return i }
    return a.count == b.count ? nil : n
}

/// What one reader thread collected from a pipe (handed over under a lock).
final class PipeData: Sendable {
    private let stored = Lock(Data())
    var data: Data {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
