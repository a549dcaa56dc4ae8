/// What a buffer carries, by kind: the three kinds flow along different ports (`PayloadKind`).
public enum BufferPayload: Sendable {
    /// A raw video frame: planes in pooled memory.
    case video(FrameMemory)
    /// Raw audio: samples laid out per the audio format (planar formats hold channel after
    /// channel); `BufferMetadata.sampleCount` sample frames.
    case audio([UInt8])
    /// An encoded packet (or any other bytes).
    case packet(PacketBytes)

    /// The kind of payload.
    public var kind: PayloadKind {
        switch self {
        case .video: return .rawVideo
        case .audio: return .rawAudio
        case .packet: return .packets
        }
    }
}

/// The one type for everything that flows along edges once sent: raw video frames, raw audio
/// and encoded packets. Immutable: metadata and payload are `let`, so fan-out hands the same
/// reference to every branch and no branch can change what another sees. A node builds or edits
/// its output as a `WritableBuffer` (noncopyable, mutable) and `NodeOutput.send` freezes it;
/// `SampleBuffer.writable(_:)` takes a received buffer back to writable, without a copy when the
/// caller held the only reference.
///
/// Plane pointers of a sent frame (`planes`) are for reading; only the holder of the only
/// reference may write them (`isUnique`, `NodeOutput.sendTransformed` check that).
public final class SampleBuffer: Sendable {
    public let metadata: BufferMetadata
    public let payload: BufferPayload

    /// "No timestamp" (as AV_NOPTS_VALUE).
    public static let noTime = BufferMetadata.noTime

    /// A buffer of a payload. `.video` memory must not be in any other buffer.
    public init(metadata: BufferMetadata, payload: BufferPayload) {
        self.metadata = metadata
        self.payload = payload
    }

    /// A buffer of bytes: raw audio when `format` is raw audio, otherwise an encoded packet.
    public convenience init(bytes: [UInt8], format: MediaFormat, pts: Int64, dts: Int64? = nil, duration: Int64,
                            timeBase: Rational, flags: BufferFlags = [], sampleCount: Int = 0,
                            codecConfiguration: CodecConfiguration? = nil, discardPadding: Int64 = 0) {
        let m = BufferMetadata(format: format, pts: pts, dts: dts, duration: duration, timeBase: timeBase, flags: flags,
                               codecConfiguration: codecConfiguration, sampleCount: sampleCount, discardPadding: discardPadding)
        if case .audio = format {
            self.init(metadata: m, payload: .audio(bytes))
        } else {
            self.init(metadata: m, payload: .packet(PacketBytes(bytes)))
        }
    }

    /// An encoded packet of `bytes` (which may be foreign memory held without a copy).
    public convenience init(packet bytes: PacketBytes, metadata: BufferMetadata) {
        self.init(metadata: metadata, payload: .packet(bytes))
    }

    // MARK: metadata (read-only)

    public var format: MediaFormat { metadata.format }
    public var pts: Int64 { metadata.pts }
    public var dts: Int64 { metadata.dts }
    public var duration: Int64 { metadata.duration }
    public var timeBase: Rational { metadata.timeBase }
    public var flags: BufferFlags { metadata.flags }
    public var codecConfiguration: CodecConfiguration? { metadata.codecConfiguration }
    public var sampleCount: Int { metadata.sampleCount }
    public var discardPadding: Int64 { metadata.discardPadding }
    /// The video format of a raw frame.
    public var videoFormat: VideoFormat? { metadata.format.video }
    /// The presentation time as a `MediaTime` (nil when unknown).
    public var presentationTime: MediaTime? { metadata.presentationTime }

    // MARK: payload

    /// The plane memory of a raw video frame.
    public var frameMemory: FrameMemory? {
        if case .video(let m) = payload { return m }
        return nil
    }

    /// Plane pointers of a raw video frame (nil for byte buffers). Read only, unless `isUnique`.
    public var planes: FramePlanes? {
        guard case .video(let m) = payload, case .video(let vf) = metadata.format else { return nil }
        return m.planes(vf)
    }

    /// Bytes of an encoded packet or of raw audio (empty for a video frame). Foreign packet
    /// memory is copied: read it with `withUnsafeBytes` instead.
    public var bytes: [UInt8] {
        switch payload {
        case .video: return []
        case .audio(let a): return a
        case .packet(let p): return p.array
        }
    }

    /// The bytes of an encoded packet as they are held (foreign memory stays uncopied), or raw
    /// audio's bytes; empty for a video frame.
    public var packetBytes: PacketBytes {
        switch payload {
        case .video: return PacketBytes([])
        case .audio(let a): return PacketBytes(a)
        case .packet(let p): return p
        }
    }

    /// Number of bytes of an encoded packet or of raw audio.
    public var byteCount: Int {
        switch payload {
        case .video: return 0
        case .audio(let a): return a.count
        case .packet(let p): return p.count
        }
    }

    /// Runs `body` on the bytes of an encoded packet or of raw audio (no copy; empty for video).
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch payload {
        case .video: return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        case .audio(let a): return try a.withUnsafeBytes(body)
        case .packet(let p): return try p.withUnsafeBytes(body)
        }
    }

    // MARK: writing

    /// Whether the caller holds the only reference and no C library holds the frame memory (then
    /// it may write the planes in place).
    public static func isUnique(_ buffer: inout SampleBuffer) -> Bool {
        guard isKnownUniquelyReferenced(&buffer) else { return false }
        if case .video(let m) = buffer.payload { return !m.isHeldForeign }
        return true
    }

    /// The buffer as a writable value: its own payload when nobody else holds it (counted as in
    /// place in `PoolStatistics`), otherwise a copy (counted as a copy). Pass the caller's last
    /// reference (`consume`) so that the in-place case is seen.
    public static func writable(_ buffer: consuming SampleBuffer) -> WritableBuffer {
        var b = buffer
        if isUnique(&b) {
            PoolStatistics.shared.recordInPlace()
            return WritableBuffer(metadata: b.metadata, payload: b.payload)
        }
        return b.writableCopy()
    }

    /// A deep copy as a writable value (plane memory from the pool; counted in `PoolStatistics`).
    public func writableCopy() -> WritableBuffer {
        PoolStatistics.shared.recordCopy()
        if case .video(let vf) = metadata.format, let src = planes {
            var out = WritableBuffer(frame: vf, timeBase: metadata.timeBase)
            out.metadata = metadata
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
        return WritableBuffer(metadata: metadata, payload: payload)
    }

    /// A deep copy (plane memory from the pool; counted in `PoolStatistics`).
    public func copy() -> SampleBuffer { writableCopy().freeze() }

    /// The same payload with changed metadata (restamping packets). Bytes are immutable, so
    /// packets and audio share them; a raw video frame is copied unless the caller passed its
    /// only reference.
    public static func restamped(_ buffer: consuming SampleBuffer, _ change: (inout BufferMetadata) throws -> Void) rethrows -> SampleBuffer {
        var w = writable(buffer)
        try change(&w.metadata)
        return w.freeze()
    }
}
