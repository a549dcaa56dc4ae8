import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where each plane of a frame lies inside one pooled memory block.
public struct FrameLayout: Hashable, Sendable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var offsets: [Int]
    public var strides: [Int]
    public var byteCount: Int

    /// Rows 64-byte aligned (and every plane starting on a 64-byte boundary) so SIMD loads never
    /// straddle cache lines at the start of a row.
    public init(format: PixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
        var offsets: [Int] = [], strides: [Int] = []
        var total = 0
        for p in 0..<format.planeCount {
            let size = format.planeSize(p, width: width, height: height)
            let stride = (size.width * format.bytesPerPixel(plane: p) + 63) & ~63
            offsets.append(total)
            strides.append(stride)
            // one spare row of 64 bytes lets kernels read a whole SIMD vector past the last pixel
            total += stride * size.height + 64
        }
        self.offsets = offsets
        self.strides = strides
        self.byteCount = max(total, 64)
    }
}

/// A pool of frame memory blocks of one layout. Blocks return to the pool when the buffer that
/// holds them is released, so in steady state no frame allocates and memory stays flat.
public final class FramePool: Sendable {
    public let layout: FrameLayout
    private let free = Lock<[UnsafeMutableRawPointer]>([])
    private let allocated = Atomic<Int>(0)
    private let handedOut = Atomic<Int>(0)

    public init(layout: FrameLayout) { self.layout = layout }

    deinit {
        free.withLock { blocks in for b in blocks { b.deallocate() } }
    }

    /// Blocks ever allocated by this pool (the high-water mark of frames alive at once).
    public var allocationCount: Int { allocated.load(ordering: .relaxed) }
    /// Buffers handed out (allocations plus reuses).
    public var bufferCount: Int { handedOut.load(ordering: .relaxed) }

    /// A frame buffer from the pool (contents undefined), or nil if memory is exhausted.
    public func makeBuffer(timeBase: Rational, format: VideoFormat) -> SampleBuffer {
        handedOut.add(1, ordering: .relaxed)
        let block = free.withLock { $0.popLast() } ?? {
            allocated.add(1, ordering: .relaxed)
            PoolStatistics.shared.recordAllocation(bytes: layout.byteCount)
            return UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: 64)
        }()
        return SampleBuffer(pooledBlock: block, pool: self, format: format, timeBase: timeBase)
    }

    func recycle(_ block: UnsafeMutableRawPointer) {
        free.withLock { $0.append(block) }
    }

    /// The process-wide pool for a layout: buffers of equal geometry share one pool.
    public static func shared(for format: VideoFormat) -> FramePool {
        let layout = FrameLayout(format: format.pixelFormat, width: format.width, height: format.height)
        return registry.withLock { pools in
            if let p = pools[layout] { return p }
            let p = FramePool(layout: layout)
            pools[layout] = p
            return p
        }
    }

    private static let registry = Lock<[FrameLayout: FramePool]>([:])

    /// All pools created so far, for statistics.
    public static var allPools: [FramePool] { registry.withLock { Array($0.values) } }
}

/// Process-wide counters of buffer memory: how many frame blocks were allocated and how many
/// buffers had to be copied because they were shared when a node wanted to write.
public final class PoolStatistics: Sendable {
    public static let shared = PoolStatistics()
    private let allocations = Atomic<Int>(0)
    private let allocatedBytes = Atomic<Int>(0)
    private let copies = Atomic<Int>(0)
    private let inPlace = Atomic<Int>(0)

    func recordAllocation(bytes: Int) {
        allocations.add(1, ordering: .relaxed)
        allocatedBytes.add(bytes, ordering: .relaxed)
    }
    func recordCopy() { copies.add(1, ordering: .relaxed) }
    func recordInPlace() { inPlace.add(1, ordering: .relaxed) }

    /// Frame memory blocks allocated (not reused from a pool).
    public var allocationCount: Int { allocations.load(ordering: .relaxed) }
    public var allocatedByteCount: Int { allocatedBytes.load(ordering: .relaxed) }
    /// Frames that had to be copied because another branch still held them.
    public var copyCount: Int { copies.load(ordering: .relaxed) }
    /// Writes that happened in place on a buffer nobody else held.
    public var inPlaceCount: Int { inPlace.load(ordering: .relaxed) }
}
