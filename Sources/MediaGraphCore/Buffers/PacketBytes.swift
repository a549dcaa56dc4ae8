/// The bytes of an encoded packet, immutable: either an array of ours or memory a C library owns
/// and reference-counts (an AVPacket's AVBufferRef from libavformat), kept alive without a copy
/// and released when the last holder lets go. Read them with `withUnsafeBytes`; `array` copies
/// foreign memory.
public struct PacketBytes: Sendable {
    enum Storage: Sendable {
        case owned([UInt8])
        case foreign(ForeignBytes)
    }
    let storage: Storage

    /// Bytes of ours.
    public init(_ bytes: [UInt8]) { storage = .owned(bytes) }

    /// Foreign memory, not copied: `count` bytes at `start`, valid until `release` runs (once,
    /// on whatever thread drops the last reference). The memory must not change while held.
    public init(foreign start: UnsafeRawPointer, count: Int, release: @escaping @Sendable () -> Void) {
        storage = .foreign(ForeignBytes(start: start, count: max(0, count), release: release))
    }

    public var count: Int {
        switch storage {
        case .owned(let a): return a.count
        case .foreign(let f): return f.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether the bytes are foreign memory held without a copy.
    public var isForeign: Bool {
        if case .foreign = storage { return true }
        return false
    }

    /// Runs `body` on the bytes (no copy).
    @inlinable public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try _withUnsafeBytes(body)
    }

    @usableFromInline func _withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .owned(let a): return try a.withUnsafeBytes(body)
        case .foreign(let f): return try body(UnsafeRawBufferPointer(start: f.start, count: f.count))
        }
    }

    /// The bytes as an array (no copy for ours, a copy of foreign memory).
    public var array: [UInt8] {
        switch storage {
        case .owned(let a): return a
        case .foreign(let f): return Array(UnsafeRawBufferPointer(start: f.start, count: f.count))
        }
    }
}

/// Foreign packet memory and the closure that releases it.
///
/// `@unchecked Sendable` because it holds a C pointer: the memory is never written while held
/// (the `PacketBytes` contract) and `release` runs exactly once, from `deinit`.
final class ForeignBytes: @unchecked Sendable {
    let start: UnsafeRawPointer
    let count: Int
    private let release: @Sendable () -> Void

    init(start: UnsafeRawPointer, count: Int, release: @escaping @Sendable () -> Void) {
        self.start = start
        self.count = count
        self.release = release
    }

    deinit { release() }
}
