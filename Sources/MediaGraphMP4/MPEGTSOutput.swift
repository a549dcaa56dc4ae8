import MediaGraphCore

/// Where an `MPEGTSMuxer` puts its transport packets: one file (`MPEGTSFile`), or HLS segments
/// (`HLSWriter`), which the muxer cuts at video key frames.
public protocol MPEGTSOutput: AnyObject {
    /// Whole transport packets, in order.
    func write(_ packets: [UInt8]) throws
    /// The packets written since the last boundary are a segment of `duration` (HLS).
    func endSegment(duration: MediaTime) throws
    /// Everything is written; the last segment (if segmented) lasts `lastSegmentDuration`.
    func finish(lastSegmentDuration: MediaTime) throws
    /// Stops without completing; `cancelled` when the run was stopped rather than failed.
    func abandon(cancelled: Bool)
}

/// One .ts file that appears at its path only when complete (exclusive temporary beside it,
/// fsync, rename); after a failure or cancel nothing is left there.
public final class MPEGTSFile: MPEGTSOutput {
    private var file: OutputFile?

    public init(path: String) throws {
        do { file = try OutputFile(path: path) } catch let e as MP4IOError { throw MPEGTSMuxerError.io(e) }
    }

    deinit { file?.discard() }

    public func write(_ packets: [UInt8]) throws {
        guard let file else { return }
        do { try file.write(packets) } catch let e as MP4IOError { throw MPEGTSMuxerError.io(e) }
    }

    public func endSegment(duration: MediaTime) throws {}

    public func finish(lastSegmentDuration: MediaTime) throws {
        guard let file else { return }
        do { try file.closeFile() } catch let e as MP4IOError {
            file.discard()
            self.file = nil
            throw MPEGTSMuxerError.io(e)
        }
        self.file = nil
    }

    public func abandon(cancelled: Bool) {
        file?.discard()
        file = nil
    }
}
