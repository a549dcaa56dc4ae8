#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// Writes an HLS stream with fragmented-MP4 segments from the pieces an `MP4Muxer` hands out
/// (`MP4Muxer(path:fragmentsTo:options:)`): the initialization segment `<prefix>_init.mp4`,
/// media segments `<prefix>0.m4s`, `<prefix>1.m4s`, … beside the playlist, and the playlist.
///
/// Every file appears only when complete (a hidden or unnamed temporary, fsync, rename), so a
/// player never reads half a segment or half a playlist. A VOD playlist is written once, at
/// the end; an EVENT or live playlist after every segment, so a player can follow a running job
/// (a live one lists a sliding window and may remove the segments that left it, `HLSLiveWindow`).
/// After a failure an EVENT or live stream keeps what its playlist lists (like a fragmented MP4 cut
/// short); a VOD stream, or any cancelled one, removes every file it wrote. `outcome` says which.
/// A rendition of a master playlist (`HLSLadderWriter`) leaves that decision to the ladder
/// (`decidesCleanup` false), which keeps or removes the files of all renditions together.
public final class HLSWriter: MP4FragmentReceiver {
    public let playlistPath: String
    /// Folder of the playlist ("" for the current one), with a trailing slash.
    let folder: String
    let prefix: String
    public internal(set) var playlist: HLSPlaylist
    /// Opened at once, so an unwritable folder fails before any media is made (fMP4 only).
    var initFile: OutputFile?
    /// MPEG-TS: the segment being written (`HLSWriter+TransportStream`).
    var segmentFile: OutputFile?
    public let segmentType: HLSSegmentType
    /// Files this writer has put in place, to remove on failure of a VOD stream.
    var written: [String] = []
    /// Segments written when the playlist file in place was (a failed rewrite leaves the previous one).
    var listedOnDisk = 0
    /// Leading segments whose files the live window has removed.
    public internal(set) var removedSegments = 0
    /// After a failure or cancel: what was kept or removed, for the error message.
    public private(set) var outcome: String?
    /// False when an owner keeps or removes the files after a failure (`removeWritten()`);
    /// `abandon` then only drops the unfinished init segment.
    public var decidesCleanup = true
    /// Called after each segment is in place (and, for EVENT, listed in the playlist).
    public var segmentWritten: () throws -> Void = {}

    /// - Parameters:
    ///   - segmentPrefix: segment file names start with it (`<prefix>0.m4s`); see
    ///     `HLSPlaylist.unusableCharacter`.
    ///   - initName: the init segment's file name; default `<prefix>_init.mp4` (fMP4 only).
    ///   - segmentType: fMP4 segments (from an `MP4Muxer`) or MPEG-TS ones (from an
    ///     `MPEGTSMuxer`, `<prefix>0.ts`, …, no init segment).
    ///   - window: what a live playlist lists and removes (ignored for VOD and EVENT).
    ///   - programDateTime: the wall-clock start of the first segment (`HLSPlaylist.programDateTime`).
    public init(playlistPath: String, segmentPrefix: String, initName: String? = nil, kind: HLSPlaylist.Kind,
                segmentType: HLSSegmentType = .fmp4, window: HLSLiveWindow = HLSLiveWindow(), programDateTime: Double? = nil) throws {
        let initName = initName ?? segmentPrefix + "_init.mp4"
        self.segmentType = segmentType
        for name in [segmentPrefix, initName] where name.isEmpty || HLSPlaylist.unusableCharacter(inFileName: name) != nil {
            throw MP4MuxerError.invalidOption("HLS segment name '\(name)' must be a file name without \" # ? % \\ / or control characters")
        }
        self.playlistPath = playlistPath
        folder = playlistPath.lastIndex(of: "/").map { String(playlistPath[...$0]) } ?? ""
        prefix = segmentPrefix
        playlist = HLSPlaylist(kind: kind, mapURI: segmentType == .fmp4 ? initName : nil, window: window)
        playlist.programDateTime = programDateTime
        guard segmentType == .fmp4 else {
            try checkFolderIsWritable()
            return
        }
        do { initFile = try OutputFile(path: folder + initName, bufferSize: 64 << 10) } catch let e as MP4IOError {
            throw MP4MuxerError.io(e)
        }
    }

    deinit {
        initFile?.discard()
        segmentFile?.discard()
    }

    public func receiveInitialization(_ bytes: [UInt8]) throws {
        guard let file = initFile else { return }
        try file.write(bytes)
        try file.closeFile()
        initFile = nil
        written.append(file.path)
    }

    public func receiveFragment(header: [UInt8], media: [UInt8], info: MP4FragmentInfo) throws {
        let name = prefix + String(playlist.segments.count) + ".m4s"
        let file = try OutputFile(path: folder + name, bufferSize: 64 << 10)
        do {
            try file.write(header)
            try file.write(media)
            try file.closeFile()
        } catch {
            file.discard()
            throw error
        }
        written.append(file.path)
        try add(HLSPlaylist.Segment(uri: name, duration: info.duration, independent: info.independent,
                                    bytes: header.count + media.count))
    }

    /// A segment is in place: an EVENT or live playlist lists it now, and a live window then
    /// removes the files of segments that left it long enough ago.
    func add(_ segment: HLSPlaylist.Segment) throws {
        playlist.segments.append(segment)
        if playlist.kind.growsWhileRunning {
            try writePlaylist()
            removeSegmentsOutOfWindow()
        }
        try segmentWritten()
    }

    /// Removes the files the window lets go (after the playlist that no longer lists them is in
    /// place). A file already gone is no error: ffmpeg only logs a failed removal, too.
    func removeSegmentsOutOfWindow() {
        let removable = playlist.window.removable(of: listedOnDisk)
        while removedSegments < removable {
            let path = folder + playlist.segments[removedSegments].uri
            unlink(path)
            written.removeAll { $0 == path }
            removedSegments += 1
        }
    }

    /// Whether the playlist file is in place (an EVENT one after the first segment, a VOD one at the end).
    public var playlistWritten: Bool { written.contains(playlistPath) }

    public func finishFragments() throws {
        playlist.ended = true
        try writePlaylist()
    }

    /// Replaces the playlist whole: a reader sees the old one or the new one, never a mix.
    func writePlaylist() throws {
        let file = try OutputFile(path: playlistPath, bufferSize: 64 << 10)
        do {
            try file.write(Array(playlist.text.utf8))
            try file.closeFile()
        } catch {
            file.discard()
            throw error
        }
        if !written.contains(playlistPath) { written.append(playlistPath) }
        listedOnDisk = playlist.segments.count
    }

    public func abandon(cancelled: Bool) {
        initFile?.discard()
        initFile = nil
        segmentFile?.discard()
        segmentFile = nil
        guard decidesCleanup else { return }
        if playlist.kind.growsWhileRunning && !cancelled && written.contains(playlistPath) {
            // a segment put in place whose listing failed (the disk filled up) goes
            let listed = playlist.segments.prefix(listedOnDisk).dropFirst(playlist.window.unlisted(of: listedOnDisk))
            for s in playlist.segments.dropFirst(listedOnDisk) where unlink(folder + s.uri) == 0 {
                written.removeAll { $0 == folder + s.uri }
            }
            let n = listed.count
            let seconds = listed.reduce(0) { $0 + $1.duration.seconds }
            let length = HLSPlaylist.decimal(MediaTime(value: Int64((seconds * 1e6).rounded()), timescale: 1_000_000))
            outcome = "kept '\(playlistPath)' with the \(n) complete segment\(n == 1 ? "" : "s") written (\(length) s), without #EXT-X-ENDLIST"
            return
        }
        let n = playlist.segments.count
        let removed = removeWritten()
        outcome = removed == 0 ? "no file was written"
            : "removed the \(removed) file\(removed == 1 ? "" : "s") written (\(n) segment\(n == 1 ? "" : "s"))"
    }

    /// Removes every file this writer put in place; returns how many.
    @discardableResult
    public func removeWritten() -> Int {
        var n = 0
        for path in written where unlink(path) == 0 { n += 1 }
        written.removeAll()
        return n
    }
}
