import MediaGraphCore

/// frei0r reads and writes whole frames of tightly packed 32-bit pixels, while our frame pools
/// pad rows to 64 bytes. One `Frei0rPackedFrame` stands for one frei0r frame argument: frames
/// whose rows are already packed are passed as they are; others go through a scratch frame
/// allocated once, at the first padded frame.
final class Frei0rPackedFrame {
    let width: Int
    let height: Int
    private var scratch: UnsafeMutablePointer<UInt32>?
    private var blank: UnsafeMutablePointer<UInt32>?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    deinit {
        scratch?.deallocate()
        blank?.deallocate()
    }

    private var rowBytes: Int { width * 4 }

    private func buffer() -> UnsafeMutablePointer<UInt32> {
        if let scratch { return scratch }
        let b = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        scratch = b
        return b
    }

    /// `planes` as an input frame for frei0r (same size as this frame's): its own memory when
    /// its rows are packed, else a packed copy.
    func input(_ planes: FramePlanes) -> UnsafePointer<UInt32> {
        if planes.stride0 == rowBytes { return UnsafeRawPointer(planes.data0).assumingMemoryBound(to: UInt32.self) }
        let b = UnsafeMutableRawPointer(buffer())
        for y in 0..<height { (b + y * rowBytes).copyMemory(from: planes.data0 + y * planes.stride0, byteCount: rowBytes) }
        return UnsafePointer(b.assumingMemoryBound(to: UInt32.self))
    }

    /// Where frei0r writes the output for `planes`: its own memory when packed, else the
    /// scratch frame (then `finishOutput` copies it into `planes`).
    func output(_ planes: FramePlanes) -> UnsafeMutablePointer<UInt32> {
        if planes.stride0 == rowBytes { return UnsafeMutableRawPointer(planes.data0).assumingMemoryBound(to: UInt32.self) }
        return buffer()
    }

    /// Copies the scratch frame into `planes` when `output(planes)` handed out the scratch.
    func finishOutput(_ planes: FramePlanes) {
        guard planes.stride0 != rowBytes, let scratch else { return }
        let s = UnsafeRawPointer(scratch).assumingMemoryBound(to: UInt8.self)
        for y in 0..<height { (planes.data0 + y * planes.stride0).update(from: s + y * rowBytes, count: rowBytes) }
    }

    /// A frame of zeros (transparent black) for an input that has no frame now; allocated once.
    func zeros() -> UnsafePointer<UInt32> {
        if let blank { return UnsafePointer(blank) }
        let b = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        b.initialize(repeating: 0, count: width * height)
        blank = b
        return UnsafePointer(b)
    }
}

/// A frame time in seconds, as frei0r's `time` argument (the specification: seconds).
enum Frei0rTime {
    static func seconds(pts: Int64, timeBase: Rational) -> Double {
        pts == SampleBuffer.noTime || timeBase.den == 0 ? 0 : Double(pts) * Double(timeBase.num) / Double(timeBase.den)
    }
}
