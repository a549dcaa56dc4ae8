import MediaGraphCore

/// What a sink node feeds encoded samples into, one track per input: an `MP4Muxer` (one file,
/// or HLS segments through a receiver) or a `DASHWriter` (one muxer per representation). The
/// nodes' shared input handling (MP4Feed: rescaling, decode order, `end: shortest`) works with
/// either.
public protocol MP4TrackWriter: AnyObject {
    /// Adds a track for an encoded edge format; its timescale is `timescale(of:)`.
    func addTrack(for format: MediaFormat, configuration: CodecConfiguration?) throws -> MP4TrackID
    /// Ticks per second of a track's sample times.
    func timescale(of track: MP4TrackID) -> Int64?
    /// Queues a sample (times in the track's timescale) and writes what it can.
    func append(_ sample: MP4Sample, to track: MP4TrackID) throws
    /// The track gets no more samples.
    func finishTrack(_ track: MP4TrackID) throws
    /// Leaves out samples of `track` not yet written whose dts is `dts` or later; returns how many.
    func dropQueued(from dts: Int64, in track: MP4TrackID) -> Int
    /// Writes everything and completes the output.
    func finish() throws
    /// Stops without completing and removes what was written.
    func cancel()
}

extension MP4Muxer: MP4TrackWriter {}
