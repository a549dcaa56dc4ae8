import Foundation
import MediaGraphCore

/// A frame in test-owned memory: rows padded past their end (padding filled with a sentinel so
/// a kernel that writes past a row is caught), content from a seeded generator that also hits 0
/// and 255.
final class TestFrame {
    static let sentinel: UInt8 = 0xA5
    let format: PixelFormat
    let width: Int
    let height: Int
    private(set) var planes: [UnsafeMutablePointer<UInt8>] = []
    private(set) var strides: [Int] = []
    private var sizes: [Int] = []

    init(_ format: PixelFormat, _ width: Int, _ height: Int, seed: UInt64? = 1) {
        self.format = format
        self.width = width
        self.height = height
        var state = (seed ?? 1) &* 0x9E37_79B9_7F4A_7C15 | 1
        for p in 0..<format.planeCount {
            let size = format.planeSize(p, width: width, height: height)
            let rowBytes = size.width * format.bytesPerPixel(plane: p)
            let stride = rowBytes + 13   // odd padding: no alignment assumptions in kernels
            let count = stride * size.height
            let mem = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            mem.initialize(repeating: Self.sentinel, count: count)
            for y in 0..<size.height where seed != nil {
                for x in 0..<rowBytes {
                    state ^= state << 13; state ^= state >> 7; state ^= state << 17
                    var v = UInt8(truncatingIfNeeded: state >> 24)
                    // Plenty of exact extremes: they are where clamping goes wrong.
                    switch state % 16 { case 0: v = 0; case 1: v = 255; default: break }
                    mem[y * stride + x] = v
                }
            }
            planes.append(mem)
            strides.append(stride)
            sizes.append(count)
        }
    }

    /// An exact copy (same content and padding).
    func copy() -> TestFrame {
        let c = TestFrame(format, width, height, seed: nil)
        for p in 0..<planes.count { c.planes[p].update(from: planes[p], count: sizes[p]) }
        return c
    }

    var planesValue: FramePlanes {
        FramePlanes(format: format, width: width, height: height, data: planes, strides: strides)
    }

    func planeSize(_ p: Int) -> (width: Int, height: Int) { format.planeSize(p, width: width, height: height) }
    func rowBytes(_ p: Int) -> Int { planeSize(p).width * format.bytesPerPixel(plane: p) }

    subscript(plane p: Int, x x: Int, y y: Int) -> UInt8 {
        get { planes[p][y * strides[p] + x] }
        set { planes[p][y * strides[p] + x] = newValue }
    }

    /// Whole memory equal, padding included.
    func sameBytes(as other: TestFrame) -> Bool {
        guard sizes == other.sizes else { return false }
        return (0..<planes.count).allSatisfy { memcmp(planes[$0], other.planes[$0], sizes[$0]) == 0 }
    }

    /// Padding bytes all still hold the sentinel.
    var paddingIntact: Bool {
        for p in 0..<planes.count {
            for y in 0..<planeSize(p).height {
                for x in rowBytes(p)..<strides[p] where planes[p][y * strides[p] + x] != Self.sentinel {
                    return false
                }
            }
        }
        return true
    }

    /// Pixel bytes packed without padding, plane after plane (a raw file's layout).
    var packed: Data {
        var d = Data()
        for p in 0..<planes.count {
            for y in 0..<planeSize(p).height {
                d.append(planes[p] + y * strides[p], count: rowBytes(p))
            }
        }
        return d
    }

    deinit { planes.forEach { $0.deallocate() } }
}

/// The sizes every kernel is checked at: full HD, GStreamer's odd size, and the tiny edge cases.
let testSizes: [(Int, Int)] = [(1920, 1080), (385, 289), (1, 1), (3, 2)]

/// Runs a kernel on a fresh frame both in place and through the copy path and compares every
/// output byte with `reference(source)` (a frame the test computed by its own scalar formula).
/// Also checks that the copy path leaves its source untouched and that no padding byte is
/// written. Returns the largest difference found, or nil when one of those checks failed.
func checkKernel(_ format: PixelFormat, _ width: Int, _ height: Int, seed: UInt64 = 7, threads: Int = 0,
                 run: (FramePlanes, FramePlanes, Int) throws -> Void,
                 reference: (TestFrame) -> TestFrame) throws -> Int? {
    let source = TestFrame(format, width, height, seed: seed)
    let original = source.copy()
    let destination = TestFrame(format, width, height, seed: seed + 100)
    try run(source.planesValue, destination.planesValue, threads)
    guard source.sameBytes(as: original), destination.paddingIntact else { return nil }

    let inPlace = original.copy()
    try run(inPlace.planesValue, inPlace.planesValue, threads)
    guard inPlace.paddingIntact else { return nil }

    let expected = reference(original)
    var worst = 0
    for p in 0..<format.planeCount {
        for y in 0..<source.planeSize(p).height {
            for x in 0..<source.rowBytes(p) {
                let e = Int(expected[plane: p, x: x, y: y])
                worst = max(worst, abs(Int(destination[plane: p, x: x, y: y]) - e),
                            abs(Int(inPlace[plane: p, x: x, y: y]) - e))
            }
        }
    }
    return worst
}

/// A reference frame for rgba/bgra from a per-pixel function on (r, g, b, a) in 0…1 units
/// (colour order whatever the byte order); results are clamped and rounded to nearest.
func rgbReference(_ f: @escaping (SIMD4<Double>) -> SIMD4<Double>) -> (TestFrame) -> TestFrame {
    { source in
        let out = source.copy()
        let order = source.format == .bgra ? [2, 1, 0, 3] : [0, 1, 2, 3]   // byte k holds channel order[k]
        for y in 0..<source.height {
            for x in 0..<source.width {
                var c = SIMD4<Double>.zero
                for k in 0..<4 { c[order[k]] = Double(source[plane: 0, x: 4 * x + k, y: y]) / 255 }
                let r = f(c)
                for k in 0..<4 { out[plane: 0, x: 4 * x + k, y: y] = UInt8(toByte(r[order[k]])) }
            }
        }
        return out
    }
}

/// A reference frame for planar formats from a function of each byte and its plane.
func planeReference(_ f: @escaping (_ plane: Int, _ byte: UInt8) -> UInt8) -> (TestFrame) -> TestFrame {
    { source in
        let out = source.copy()
        for p in 0..<source.format.planeCount {
            for y in 0..<source.planeSize(p).height {
                for x in 0..<source.rowBytes(p) { out[plane: p, x: x, y: y] = f(p, source[plane: p, x: x, y: y]) }
            }
        }
        return out
    }
}

/// Round to nearest (halves up) and clamp, for a value in 0…1 units.
func toByte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255 + 0.5).rounded(.down)) }

/// The ffmpeg on PATH, or nil.
let ffmpegPath: String? = {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
        let p = "\(dir)/ffmpeg"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}()

/// Runs ffmpeg with `arguments` in `dir`; returns its exit status and stderr.
func runFFmpeg(_ arguments: [String], in dir: URL) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpegPath!)
    process.arguments = ["-v", "error", "-nostdin", "-y"] + arguments
    process.currentDirectoryURL = dir
    let err = Pipe()
    process.standardError = err
    try process.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
}

func makeTempDir() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mgk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}
