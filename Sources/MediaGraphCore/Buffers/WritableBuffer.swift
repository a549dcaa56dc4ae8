/// A buffer being built or edited by one node: mutable metadata, a payload it owns, not
/// copyable — so nothing else can see it while it changes. `NodeOutput.send(consume w)` (or
/// `freeze()`) turns it into an immutable `SampleBuffer`; after that the compiler refuses any
/// further use of `w`.
public struct WritableBuffer: ~Copyable {
    public var metadata: BufferMetadata
    @usableFromInline var payload: BufferPayload

    init(metadata: BufferMetadata, payload: BufferPayload) {
        self.metadata = metadata
        self.payload = payload
    }

    /// A new raw video frame from the shared pool of its geometry (contents undefined; no
    /// timestamp, duration 0).
    public init(frame format: VideoFormat, timeBase: Rational? = nil) {
        let memory = FramePool.shared(for: format).makeMemory()
        self.init(metadata: BufferMetadata(format: .video(format), timeBase: timeBase ?? format.timeBase), payload: .video(memory))
    }

    /// A new raw video frame in `memory` (which no other buffer may hold).
    public init(metadata: BufferMetadata, frameMemory memory: FrameMemory) {
        self.init(metadata: metadata, payload: .video(memory))
    }

    /// A buffer of bytes: raw audio when `format` is raw audio, otherwise an encoded packet.
    public init(bytes: [UInt8], format: MediaFormat, pts: Int64, dts: Int64? = nil, duration: Int64,
                timeBase: Rational, flags: BufferFlags = [], sampleCount: Int = 0) {
        let m = BufferMetadata(format: format, pts: pts, dts: dts, duration: duration, timeBase: timeBase, flags: flags,
                               sampleCount: sampleCount)
        if case .audio = format {
            self.init(metadata: m, payload: .audio(bytes))
        } else {
            self.init(metadata: m, payload: .packet(PacketBytes(bytes)))
        }
    }

    /// The immutable buffer to send.
    public consuming func freeze() -> SampleBuffer {
        SampleBuffer(metadata: metadata, payload: payload)
    }

    // MARK: metadata

    public var format: MediaFormat { get { metadata.format } set { metadata.format = newValue } }
    public var pts: Int64 { get { metadata.pts } set { metadata.pts = newValue } }
    public var dts: Int64 { get { metadata.dts } set { metadata.dts = newValue } }
    public var duration: Int64 { get { metadata.duration } set { metadata.duration = newValue } }
    public var timeBase: Rational { get { metadata.timeBase } set { metadata.timeBase = newValue } }
    public var flags: BufferFlags { get { metadata.flags } set { metadata.flags = newValue } }
    public var codecConfiguration: CodecConfiguration? {
        get { metadata.codecConfiguration } set { metadata.codecConfiguration = newValue }
    }
    public var sampleCount: Int { get { metadata.sampleCount } set { metadata.sampleCount = newValue } }
    public var discardPadding: Int64 { get { metadata.discardPadding } set { metadata.discardPadding = newValue } }
    public var videoFormat: VideoFormat? { metadata.format.video }

    /// Takes timestamps, flags and codec configuration from `other` (format and sample count stay).
    public mutating func copyMetadata(from other: SampleBuffer) {
        metadata.copyTiming(from: other.metadata)
    }

    // MARK: payload

    /// Plane pointers of a raw video frame, to write (nil for byte buffers).
    public var planes: FramePlanes? {
        guard case .video(let m) = payload, case .video(let vf) = metadata.format else { return nil }
        return m.planes(vf)
    }

    /// Bytes of raw audio or of a packet (empty for a video frame); setting them replaces the
    /// payload (a video frame's memory is released).
    public var bytes: [UInt8] {
        get {
            switch payload {
            case .video: return []
            case .audio(let a): return a
            case .packet(let p): return p.array
            }
        }
        set {
            if case .audio = metadata.format { payload = .audio(newValue) } else { payload = .packet(PacketBytes(newValue)) }
        }
    }
}
