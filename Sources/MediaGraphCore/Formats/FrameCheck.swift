/// The one check of a frame's memory before code reads or writes it through raw pointers (the
/// kernels, and the C libraries the codecs call): a wrong frame becomes an error value, never an
/// out-of-bounds access. Each caller turns the problem into its own error type.
public enum FrameCheck {
    /// What makes `frame` unfit to be read as a `format` frame of `width`x`height`, or nil.
    /// Checked in this order: format and size as expected, a size that is not empty, a pointer
    /// for every plane, strides that hold a row (a shorter one would read past the frame).
    public static func problem(_ frame: FramePlanes, format: PixelFormat, width: Int, height: Int) -> FrameProblem? {
        guard frame.format == format, frame.width == width, frame.height == height else {
            return .mismatch(expected: "\(format) \(width)x\(height)",
                             found: "\(frame.format) \(frame.width)x\(frame.height)")
        }
        guard width > 0, height > 0 else { return .emptySize(width: width, height: height) }
        for p in 0..<format.planeCount {
            let pointer: UnsafeMutablePointer<UInt8>? = p == 0 ? frame.data0 : (p == 1 ? frame.data1 : frame.data2)
            guard pointer != nil else { return .missingPlane(p, format: format) }
            let rowBytes = frame.rowBytes(p)
            guard frame.stride(p) >= rowBytes else { return .shortStride(plane: p, stride: frame.stride(p), rowBytes: rowBytes) }
        }
        return nil
    }
}

/// Why `FrameCheck` refused a frame.
public enum FrameProblem: Equatable, Sendable, CustomStringConvertible {
    /// Another format or size than expected ("yuv420p 64x48").
    case mismatch(expected: String, found: String)
    case emptySize(width: Int, height: Int)
    case missingPlane(Int, format: PixelFormat)
    case shortStride(plane: Int, stride: Int, rowBytes: Int)

    public var description: String {
        switch self {
        case let .mismatch(expected, found): return "expected \(expected), found \(found)"
        case let .emptySize(width, height): return "frame size \(width)x\(height) is empty"
        case let .missingPlane(p, format): return "plane \(p) of \(format) has no data pointer"
        case let .shortStride(p, stride, rowBytes): return "plane \(p) stride \(stride) is shorter than its row of \(rowBytes) bytes"
        }
    }
}
