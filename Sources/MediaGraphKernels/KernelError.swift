import MediaGraphCore

/// Why a kernel or a filter parameter was rejected. Every case carries enough to act on: which
/// kernel or parameter, what was expected and what was found.
public enum KernelError: Error, Equatable, CustomStringConvertible {
    /// The frame's pixel format is not one the kernel works on.
    case unsupportedFormat(kernel: String, found: PixelFormat, accepted: [PixelFormat])
    /// Source and destination differ in format or size.
    case mismatchedFrames(kernel: String, source: String, destination: String)
    /// A plane pointer is missing, a size is not positive or a stride is shorter than a row.
    case badPlanes(kernel: String, detail: String)
    /// A filter parameter lies outside its documented range (or is not finite).
    case parameterOutOfRange(name: String, value: Double, range: ClosedRange<Double>)
    /// A parameter is malformed in another way (wrong element count, unknown preset ...).
    case invalidParameter(name: String, detail: String)

    public var description: String {
        switch self {
        case let .unsupportedFormat(kernel, found, accepted):
            return "\(kernel): pixel format \(found) is not supported; expected one of "
                + accepted.map(\.rawValue).joined(separator: ", ")
        case let .mismatchedFrames(kernel, source, destination):
            return "\(kernel): source is \(source) but destination is \(destination); they must match"
        case let .badPlanes(kernel, detail):
            return "\(kernel): \(detail)"
        case let .parameterOutOfRange(name, value, range):
            return "\(name): \(value) is outside \(range.lowerBound)…\(range.upperBound)"
        case let .invalidParameter(name, detail):
            return "\(name): \(detail)"
        }
    }
}

extension KernelError {
    /// Returns `value` if it is finite and inside `range`, else throws `parameterOutOfRange`.
    @discardableResult
    static func check(_ name: String, _ value: Double, in range: ClosedRange<Double>) throws -> Double {
        guard value.isFinite, range.contains(value) else {
            throw KernelError.parameterOutOfRange(name: name, value: value, range: range)
        }
        return value
    }
}
