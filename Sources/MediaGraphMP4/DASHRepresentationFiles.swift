#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// The files of one DASH representation: its initialization segment and its media segments,
/// each handed over whole by the representation's `MP4Muxer` and written beside the MPD.
/// Every file appears only when complete (`OutputFile`: a hidden or unnamed temporary, fsync,
/// rename). Which files stay after a failure is the `DASHWriter`'s decision (`remove`).
final class DASHRepresentationFiles: MP4FragmentReceiver {
    /// Folder of the MPD ("" for the current one), with a trailing slash.
    let folder: String
    let representation: Int
    let segmentName: DASHSegmentName
    let initPath: String
    /// Opened at once, so an unwritable folder fails before any media is made.
    private var initFile: OutputFile?
    private(set) var initWritten = false
    /// Segments put in place, in order, and their sizes (for the bandwidth); a live window may
    /// have removed the first `removedSegments` of them since.
    private(set) var segmentPaths: [String] = []
    private(set) var removedSegments = 0
    private(set) var segmentBytes: [Int] = []
    /// S@t of segment k, which `$Time$` names it by (set by the writer).
    var segmentTime: (Int) -> Int64 = { _ in 0 }
    /// Called after each segment is in place (the writer rewrites a dynamic MPD).
    var segmentWritten: () throws -> Void = {}

    init(folder: String, representation: Int, initialization: DASHSegmentName, segmentName: DASHSegmentName) throws {
        self.folder = folder
        self.representation = representation
        self.segmentName = segmentName
        initPath = folder + initialization.name(representation: representation)
        do { initFile = try OutputFile(path: initPath, bufferSize: 64 << 10) } catch let e as MP4IOError {
            throw MP4MuxerError.io(e)
        }
    }

    deinit { initFile?.discard() }

    func receiveInitialization(_ bytes: [UInt8]) throws {
        guard let file = initFile else { return }
        try file.write(bytes)
        try file.closeFile()
        initFile = nil
        initWritten = true
    }

    func receiveFragment(header: [UInt8], media: [UInt8], info: MP4FragmentInfo) throws {
        let k = segmentPaths.count
        let path = folder + segmentName.name(representation: representation, number: k + 1, time: segmentTime(k))
        let file = try OutputFile(path: path, bufferSize: 64 << 10)
        do {
            try file.write(header)
            try file.write(media)
            try file.closeFile()
        } catch {
            file.discard()
            throw error
        }
        segmentPaths.append(path)
        segmentBytes.append(header.count + media.count)
        try segmentWritten()
    }

    /// Nothing is left to write here: the MPD, which lists every representation, is the
    /// writer's, once all of them have finished.
    func finishFragments() throws {}

    /// The muxer stopped: the init segment, if not yet complete, is dropped; what is in place
    /// stays until the writer decides (`remove`).
    func abandon(cancelled: Bool) {
        initFile?.discard()
        initFile = nil
    }

    /// Removes the files of the segments before the first `count` not yet removed (a live
    /// window's old segments). A file already gone is no error: ffmpeg does not stop for one either.
    func removeSegments(upTo count: Int) {
        while removedSegments < min(count, segmentPaths.count) {
            unlink(segmentPaths[removedSegments])
            removedSegments += 1
        }
    }

    /// Files in place: the init segment (if written) and the segments.
    var writtenCount: Int { (initWritten ? 1 : 0) + segmentPaths.count - removedSegments }

    /// Removes the segments after the first `keep` (all, with 0) and, when none is kept, the
    /// init segment; returns how many files were removed.
    @discardableResult
    func remove(keepingSegments keep: Int) -> Int {
        var n = 0
        for path in segmentPaths.dropFirst(keep) where unlink(path) == 0 { n += 1 }
        segmentPaths.removeSubrange(min(keep, segmentPaths.count)...)
        segmentBytes.removeSubrange(min(keep, segmentBytes.count)...)
        if keep == 0 && initWritten {
            if unlink(initPath) == 0 { n += 1 }
            initWritten = false
        }
        return n
    }
}
