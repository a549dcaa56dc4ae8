#if canImport(Glibc)
import Glibc
#endif

/// A failed file operation: which file, where, and the system's reason.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done, as a verb phrase: "create", "write", "move the finished file to".
    public var operation: String
    public var path: String
    /// The byte offset of a failed read or write.
    public var offset: UInt64?
    /// The `errno` value.
    public var code: Int32

    public init(operation: String, path: String, offset: UInt64? = nil, code: Int32) {
        self.operation = operation
        self.path = path
        self.offset = offset
        self.code = code
    }

    /// The system's reason, with what it means for the common cases.
    public var reason: String {
        var reason = String(cString: strerror(code))
        if code == ENOSPC { reason += " (the disk is full)" }
        if code == EFBIG { reason += " (the file size limit was reached)" }
        return reason
    }

    public var description: String {
        let at = offset.map { " at byte \($0)" } ?? ""
        return "cannot \(operation) \(path)\(at): \(reason)"
    }
}
