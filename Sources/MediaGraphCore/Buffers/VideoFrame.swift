/// A received raw video frame, as a node that takes only video gets it: format and planes are
/// not optional, nothing to inspect. Noncopyable, so passing it on (`consume`) keeps the node's
/// reference the only one and `NodeOutput.sendTransformed` can write in place.
public struct VideoFrame: ~Copyable {
    /// The frame as sent (immutable).
    public let buffer: SampleBuffer
    public let format: VideoFormat
    /// Plane pointers: read only, unless this is the only reference (`sendTransformed` decides).
    public let planes: FramePlanes

    /// The frame of `buffer`, or nil when it is not raw video in frame memory.
    public init?(_ buffer: consuming SampleBuffer) {
        guard let format = buffer.videoFormat, let planes = buffer.planes else { return nil }
        self.buffer = buffer
        self.format = format
        self.planes = planes
    }

    public var metadata: BufferMetadata { buffer.metadata }
    public var pts: Int64 { buffer.pts }
    public var timeBase: Rational { buffer.timeBase }

    /// The buffer, to send on unchanged.
    public consuming func take() -> SampleBuffer { buffer }
}

extension NodeOutput {
    /// `sendTransformed(_:to:port:_:)` for a typed frame.
    public func sendTransformed(_ frame: consuming VideoFrame, to format: VideoFormat? = nil, port: Int = 0, inPlace: Bool = true,
                                _ body: (FramePlanes, FramePlanes, Bool) throws -> Void) throws {
        try sendTransformed(frame.take(), to: format, port: port, inPlace: inPlace, body)
    }

    /// Sends a received frame on unchanged.
    public func send(_ frame: consuming VideoFrame, port: Int = 0) throws {
        try send(frame.take(), port: port)
    }
}
