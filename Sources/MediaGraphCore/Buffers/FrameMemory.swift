import Synchronization

/// The plane memory of one raw video frame: a block from a `FramePool`, returned to it when the
/// last holder lets go. It is the payload of a raw video `SampleBuffer` or `WritableBuffer`; at
/// most one buffer holds a given `FrameMemory` (only the core and a decoder's picture allocator
/// wrap one), so "the buffer is uniquely referenced and no C library holds its memory" means
/// "nobody else can see these planes" and a node may write them in place.
///
/// `@unchecked Sendable` because it owns raw memory: what makes sharing it across threads safe is
/// the contract above — memory in a sent buffer is only read, and written only by a holder that
/// checked it is the only one (`SampleBuffer.isUnique`), after the hand-off between node threads
/// (a lock in the queue) ordered every earlier access before it.
public final class FrameMemory: @unchecked Sendable {
    @usableFromInline let block: UnsafeMutableRawPointer
    /// The pool the block returns to; its layout says where the planes lie.
    public let pool: FramePool
    /// References a C library holds (libavcodec keeps decoded pictures as reference frames).
    private let foreignHolds = Atomic<Int>(0)

    init(block: UnsafeMutableRawPointer, pool: FramePool) {
        self.block = block
        self.pool = pool
    }

    deinit { pool.recycle(block) }

    /// Where the planes lie in the block.
    public var layout: FrameLayout { pool.layout }

    /// Start of the block (plane 0 of a single-plane layout).
    public var baseAddress: UnsafeMutablePointer<UInt8> { block.assumingMemoryBound(to: UInt8.self) }

    /// Plane pointers for a frame of `format` laid out as this block's pool lays out frames
    /// (a decoder's padded layout may be larger than `format`).
    @inlinable public func planes(_ format: VideoFormat) -> FramePlanes {
        let l = pool.layout
        let b = block.assumingMemoryBound(to: UInt8.self)
        switch l.format.planeCount {
        case 1:
            return FramePlanes(format: format.pixelFormat, width: format.width, height: format.height, data0: b, stride0: l.strides[0])
        default:
            return FramePlanes(format: format.pixelFormat, width: format.width, height: format.height,
                               data0: b + l.offsets[0], stride0: l.strides[0],
                               data1: b + l.offsets[1], stride1: l.strides[1],
                               data2: b + l.offsets[2], stride2: l.strides[2])
        }
    }

    /// A retained opaque reference for a C library that keeps this memory (libavcodec's AVBuffer
    /// opaque). While it is held, buffers of this memory count as shared (writes copy). Balance
    /// with `releaseForeignReference`, on any thread.
    public func retainForeignReference() -> UnsafeMutableRawPointer {
        foreignHolds.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(self).toOpaque()
    }

    /// Drops a reference `retainForeignReference` made. The C library must be done with the memory
    /// (release ordering: a later uniqueness check sees all its accesses as finished).
    public static func releaseForeignReference(_ opaque: UnsafeMutableRawPointer) {
        let m = Unmanaged<FrameMemory>.fromOpaque(opaque)
        m.takeUnretainedValue().foreignHolds.subtract(1, ordering: .releasing)
        m.release()
    }

    /// The memory behind an opaque reference from `retainForeignReference` (not retained again).
    public static func fromForeignReference(_ opaque: UnsafeRawPointer) -> FrameMemory {
        Unmanaged<FrameMemory>.fromOpaque(opaque).takeUnretainedValue()
    }

    /// Whether a C library still holds this memory.
    var isHeldForeign: Bool { foreignHolds.load(ordering: .acquiring) > 0 }
}
