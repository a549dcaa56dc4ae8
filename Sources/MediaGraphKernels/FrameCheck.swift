import MediaGraphCore

/// The checks every kernel makes before touching memory, so that a wrong frame is an error value
/// and never an out-of-bounds access.
enum FrameCheck {
    static func validate(kernel: String, source: FramePlanes, destination: FramePlanes,
                         accepted: [PixelFormat]) throws {
        guard accepted.contains(source.format) else {
            throw KernelError.unsupportedFormat(kernel: kernel, found: source.format, accepted: accepted)
        }
        guard source.format == destination.format, source.width == destination.width,
              source.height == destination.height else {
            throw KernelError.mismatchedFrames(
                kernel: kernel,
                source: "\(source.format) \(source.width)x\(source.height)",
                destination: "\(destination.format) \(destination.width)x\(destination.height)")
        }
        guard source.width > 0, source.height > 0 else {
            throw KernelError.badPlanes(kernel: kernel,
                                        detail: "frame size \(source.width)x\(source.height) is empty")
        }
        for frame in [source, destination] {
            for p in 0..<frame.format.planeCount {
                let pointer: UnsafeMutablePointer<UInt8>? =
                    p == 0 ? frame.data0 : (p == 1 ? frame.data1 : frame.data2)
                guard pointer != nil else {
                    throw KernelError.badPlanes(kernel: kernel, detail: "plane \(p) of \(frame.format) is missing")
                }
                let rowBytes = frame.rowBytes(p)
                guard frame.stride(p) >= rowBytes else {
                    throw KernelError.badPlanes(
                        kernel: kernel,
                        detail: "plane \(p) stride \(frame.stride(p)) is shorter than its row of \(rowBytes) bytes")
                }
            }
        }
    }

    /// Rows of plane `plane` that belong to the band `rows` of luma rows: the floor mapping makes
    /// neighbouring bands meet exactly, so every chroma row is processed once.
    @inline(__always)
    static func planeRows(_ rows: Range<Int>, plane: Int, of frame: FramePlanes) -> Range<Int> {
        if plane == 0 { return rows }
        let h = frame.planeSize(plane).height
        return (rows.lowerBound * h / frame.height)..<(rows.upperBound * h / frame.height)
    }
}
