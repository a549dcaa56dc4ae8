/// A writer that owns one muxer per track (`DASHWriter`, `HLSLadderWriter`): how it stops.
/// The first cancel or failure stops every muxer, and the writer then keeps or removes its files
/// as it documents (`abandonFiles`).
protocol MuxerGroup: AnyObject {
    var state: MP4MuxerState { get set }
    /// Every track's muxer.
    var muxers: [any MP4TrackWriter] { get }
    /// Keeps or removes what was written; `cancelled` when the run was stopped rather than failed.
    func abandonFiles(cancelled: Bool)
}

extension MuxerGroup {
    /// Still taking samples (or about to).
    var isOpen: Bool { state == .idle || state == .running }

    /// Stops every muxer without completing; a second stop does nothing.
    func stop(cancelled: Bool) {
        guard isOpen else { return }
        state = cancelled ? .cancelled : .failed
        for m in muxers { m.cancel() }
        abandonFiles(cancelled: cancelled)
    }

    /// The first failure stops the group; returns `error` to throw.
    func fail(_ error: Error) -> Error {
        stop(cancelled: false)
        return error
    }
}
