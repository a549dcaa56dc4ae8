import MediaGraphCore

/// Takes a fragmented MP4 in pieces instead of one file: an HLS (or DASH) writer puts the
/// initialization segment and each fragment in a file of its own. The muxer calls it from the
/// thread that calls the muxer; an error it throws fails the muxer like a failed write (throw
/// `MP4IOError` for file errors, so the message names the file, offset and reason).
public protocol MP4FragmentReceiver: AnyObject {
    /// ftyp + moov (with mvex): once, before the first fragment.
    func receiveInitialization(_ bytes: [UInt8]) throws
    /// One fragment, whole: `header` (styp, moof and the mdat box header) then `media` (the
    /// mdat payload). The arrays are the muxer's own buffers: use them before returning.
    func receiveFragment(header: [UInt8], media: [UInt8], info: MP4FragmentInfo) throws
    /// Every fragment has been handed over (from `MP4Muxer.finish`).
    func finishFragments() throws
    /// The muxer stopped early: `cancelled` for `MP4Muxer.cancel()` (or dropping a running
    /// muxer), false after an error. Called once at most.
    func abandon(cancelled: Bool)
}

/// What a fragment holds, for a playlist.
public struct MP4FragmentInfo: Sendable, Equatable {
    /// The moof's sequence number (mfhd), 1 for the first fragment.
    public var sequence: UInt32
    /// Where the fragment starts on the lead track's decode timeline (the first video track, or
    /// the first track without video), counted from that track's first sample.
    public var start: MediaTime
    /// The lead track's samples' total duration in the fragment (a fragment without them: the
    /// longest run of another track), what an HLS #EXTINF states.
    public var duration: MediaTime
    /// Whether the fragment can be decoded on its own: every video run starts with a key frame.
    public var independent: Bool
}
