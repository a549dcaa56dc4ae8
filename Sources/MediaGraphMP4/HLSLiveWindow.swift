/// A live playlist's sliding window (ffmpeg's `-hls_list_size` and `-hls_flags
/// delete_segments`): the playlist lists only the last `listSize` segments, and with
/// `deleteSegments` a segment's file goes once it has been out of the playlist for longer than
/// one more segment, so a player that read the previous playlist can still fetch it (ffmpeg's
/// `hls_delete_threshold` of 1).
public struct HLSLiveWindow: Sendable, Equatable {
    /// Segments listed; 0 lists them all.
    public var listSize: Int
    /// Whether segments that left the window are removed from the folder.
    public var deleteSegments: Bool

    /// What a live playlist lists when not told: ffmpeg's default hls_list_size.
    public static let ffmpegListSize = 5

    /// Segments out of the playlist whose files stay, for players still fetching them.
    static let keptAfterLeaving = 1

    public init(listSize: Int = 0, deleteSegments: Bool = false) {
        self.listSize = listSize
        self.deleteSegments = deleteSegments
    }

    /// Of `count` segments written, how many lead the playlist unlisted.
    func unlisted(of count: Int) -> Int {
        listSize > 0 ? max(0, count - listSize) : 0
    }

    /// Of `count` segments written, how many leading ones have files to remove.
    func removable(of count: Int) -> Int {
        deleteSegments ? max(0, unlisted(of: count) - Self.keptAfterLeaving) : 0
    }
}
