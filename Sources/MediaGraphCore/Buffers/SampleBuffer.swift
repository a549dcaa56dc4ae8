/// Flags of a buffer.
public struct BufferFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A key frame (sync sample): decoding can start here.
    public static let keyFrame = BufferFlags(rawValue: 1)
    /// Timestamps jump here (a gap or a splice).
    public static let discontinuity = BufferFlags(rawValue: 2)
    /// On an encoded packet: the stream's presentation ends at this packet's pts + duration (a
    /// trim's `end`, or padding a container marks at the end of the last audio packet). A decoder
    /// cuts what it decodes beyond that point (audio to the sample).
    public static let endOfPresentation = BufferFlags(rawValue: 4)
}

/// The one reference type for everything that flows along edges: raw video frames (planes from a
/// pool), raw audio and encoded packets (bytes). Reference counting is Swift's own; fan-out hands
/// the same buffer to every branch. A buffer is read-only once sent: a node that wants to write
/// asks `SampleBuffer.writable(_:)`, which copies only when the buffer is shared.
///
/// Time zero is where presentation starts. Encoded packets before it (the GOP lead-in of a trim,
/// AAC priming, Opus pre-skip, media an edit list hides) have negative timestamps: a decoder
/// decodes them and presents nothing before zero (audio cut to the sample), a muxer that copies
/// them hides them with an edit list.
public final class SampleBuffer {
    /// Format of the payload.
    public var format: MediaFormat
    /// Presentation and decode time stamps and duration, in ticks of `timeBase` seconds.
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var timeBase: Rational
    public var flags: BufferFlags
    /// Encoded buffers carry what a muxer needs to describe their stream.
    public var codecConfiguration: CodecConfiguration?
    /// Bytes of an encoded packet or of raw audio (layout per the audio format; planar formats
    /// hold channel after channel).
    public var bytes: [UInt8]
    /// Number of audio sample frames (per channel) in a raw audio buffer.
    public var sampleCount: Int
    /// On an encoded audio packet flagged `.endOfPresentation`: ticks at the end of it that are
    /// padding, not presented (the container's discard padding). `duration` still covers them, as
    /// the container stores it, so a stream copy keeps the packet as ffmpeg's `-c copy` does; a
    /// decoder ends presentation at pts + duration - discardPadding.
    public var discardPadding: Int64 = 0

    /// Pooled plane memory of a raw video frame.
    @usableFromInline let block: UnsafeMutableRawPointer?
    private let pool: FramePool?

    /// "No timestamp" (as AV_NOPTS_VALUE).
    public static let noTime = Int64.min

    init(pooledBlock: UnsafeMutableRawPointer, pool: FramePool, format: VideoFormat, timeBase: Rational) {
        self.block = pooledBlock
        self.pool = pool
        self.format = .video(format)
        self.pts = SampleBuffer.noTime
        self.dts = SampleBuffer.noTime
        self.duration = 0
        self.timeBase = timeBase
        self.flags = []
        self.bytes = []
        self.sampleCount = 0
    }

    /// A buffer of bytes: an encoded packet or raw audio.
    public init(bytes: [UInt8], format: MediaFormat, pts: Int64, dts: Int64? = nil, duration: Int64,
                timeBase: Rational, flags: BufferFlags = [], sampleCount: Int = 0) {
        self.block = nil
        self.pool = nil
        self.format = format
        self.bytes = bytes
        self.pts = pts
        self.dts = dts ?? pts
        self.duration = duration
        self.timeBase = timeBase
        self.flags = flags
        self.sampleCount = sampleCount
    }

    deinit {
        if let block, let pool { pool.recycle(block) }
    }

    /// A new raw video frame from the shared pool of its geometry (contents undefined).
    public static func makeFrame(_ format: VideoFormat, timeBase: Rational? = nil) -> SampleBuffer {
        FramePool.shared(for: format).makeBuffer(timeBase: timeBase ?? format.timeBase, format: format)
    }

    /// The video format of a raw frame.
    public var videoFormat: VideoFormat? { format.video }

    /// Plane pointers of a raw video frame (nil for byte buffers).
    public var planes: FramePlanes? {
        guard let block, let pool, case .video(let vf) = format else { return nil }
        let l = pool.layout
        let b = block.assumingMemoryBound(to: UInt8.self)
        switch l.format.planeCount {
        case 1:
            return FramePlanes(format: vf.pixelFormat, width: vf.width, height: vf.height, data0: b, stride0: l.strides[0])
        default:
            return FramePlanes(format: vf.pixelFormat, width: vf.width, height: vf.height,
                               data0: b + l.offsets[0], stride0: l.strides[0],
                               data1: b + l.offsets[1], stride1: l.strides[1],
                               data2: b + l.offsets[2], stride2: l.strides[2])
        }
    }

    /// The presentation time as a `MediaTime` (nil when unknown).
    public var presentationTime: MediaTime? {
        pts == SampleBuffer.noTime ? nil : MediaTime(value: pts * timeBase.num, timescale: timeBase.den)
    }

    /// Copies timestamps, flags and codec configuration from another buffer.
    public func copyMetadata(from other: SampleBuffer) {
        pts = other.pts
        dts = other.dts
        duration = other.duration
        timeBase = other.timeBase
        flags = other.flags
        discardPadding = other.discardPadding
        codecConfiguration = other.codecConfiguration
    }

    /// A buffer the caller may write: `buffer` itself when nobody else holds it, otherwise a copy
    /// (counted in `PoolStatistics`). Pass the caller's last reference (`consume`) so that the
    /// in-place case is seen.
    public static func writable(_ buffer: consuming SampleBuffer) -> SampleBuffer {
        var b = buffer
        if isKnownUniquelyReferenced(&b) {
            PoolStatistics.shared.recordInPlace()
            return b
        }
        return b.copy()
    }

    /// Whether the caller holds the only reference (then it may write in place).
    public static func isUnique(_ buffer: inout SampleBuffer) -> Bool {
        isKnownUniquelyReferenced(&buffer)
    }

    /// A deep copy (plane memory from the pool).
    public func copy() -> SampleBuffer {
        PoolStatistics.shared.recordCopy()
        if case .video(let vf) = format, let src = planes {
            let out = SampleBuffer.makeFrame(vf, timeBase: timeBase)
            out.copyMetadata(from: self)
            let dst = out.planes!
            for p in 0..<src.planeCount {
                let rowBytes = src.rowBytes(p)
                let rows = src.planeSize(p).height
                if src.stride(p) == dst.stride(p) {
                    dst.data(p).update(from: src.data(p), count: src.stride(p) * rows)
                } else {
                    for y in 0..<rows {
                        (dst.data(p) + y * dst.stride(p)).update(from: src.data(p) + y * src.stride(p), count: rowBytes)
                    }
                }
            }
            return out
        }
        let out = SampleBuffer(bytes: bytes, format: format, pts: pts, dts: dts, duration: duration,
                               timeBase: timeBase, flags: flags, sampleCount: sampleCount)
        out.codecConfiguration = codecConfiguration
        return out
    }
}
