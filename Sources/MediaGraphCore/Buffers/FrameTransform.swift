extension NodeOutput {
    /// The way filters write frames: runs `body(source, destination, inPlace)` and sends the
    /// result on `port`. When the caller passed its only reference to `frame` and the formats
    /// match, source and destination are the same planes (in place, zero copies). Otherwise the
    /// destination is a new pooled frame and `body` reads the shared source while writing it (the
    /// copy path, one pass; counted in `PoolStatistics`). `body` runs once per frame.
    /// `inPlace: false` always gives a new frame, for a kernel that moves pixels (a half turn
    /// of the same format would read what it has already written).
    public func sendTransformed(_ frame: consuming SampleBuffer, to format: VideoFormat? = nil, port: Int = 0, inPlace: Bool = true,
                                _ body: (FramePlanes, FramePlanes, Bool) throws -> Void) throws {
        var source = consume frame
        guard let sourceFormat = source.videoFormat, let src = source.planes else {
            throw NodeFailure("expected a raw video frame, got \(source.format)")
        }
        let target = format ?? sourceFormat
        if inPlace && target == sourceFormat && SampleBuffer.isUnique(&source) {
            PoolStatistics.shared.recordInPlace()
            try body(src, src, true)
            try send(consume source, port: port)
            return
        }
        if target == sourceFormat { PoolStatistics.shared.recordCopy() }
        var out = WritableBuffer(frame: target, timeBase: source.timeBase)
        out.copyMetadata(from: source)
        try body(src, out.planes!, false)
        try send(consume out, port: port)
    }
}
