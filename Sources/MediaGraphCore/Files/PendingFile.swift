import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A new output file that appears at its path only when it is complete: the one way MediaGraph
/// writes files (sinks and the MP4 muxer alike).
///
/// The file is created in the target directory — so the final rename stays on one file system —
/// exclusively and without following a symbolic link:
/// - where the file system supports it, with `O_TMPFILE`: the file has no name at all until
///   `commit`, so a process killed at any point leaves nothing behind;
/// - elsewhere under a hidden name with 64 random bits (`.NAME.<16 hex digits>.partial`), opened
///   `O_CREAT | O_EXCL | O_NOFOLLOW`: a file or link planted at a predictable name can neither
///   redirect the write nor make it fail.
/// `commit` flushes the data to disk (`fsync`) and renames the file over the path (which replaces
/// a link at the path, never what it points to); `discard` (and `deinit` without `commit`) removes
/// it. An existing character device or FIFO at the path (`/dev/null`, a pipe) is written directly,
/// and so is a link at the path to a FIFO or to this process's standard output or error
/// (`/dev/stdout`, `/dev/fd/2`): replacing such a link would leave the stream empty (and, as root,
/// replace `/dev/stdout` for the whole machine).
public final class PendingFile {
    /// When the file appears at its path.
    public enum Placement: Sendable {
        /// At `commit` (the usual case: nothing half-written is ever visible).
        case onCommit
        /// At once, then written in place: for formats that stay readable when cut short
        /// (fragmented MP4). Still created exclusively and renamed over the path, so a planted
        /// link is replaced, not followed; `discard` removes it.
        case immediately
        /// Never: scratch space beside the output (same file system), gone when closed.
        case never
    }

    /// The output path.
    public let path: String
    public let placement: Placement
    /// The open file (read-write), valid until `commit` or `discard`.
    public private(set) var descriptor: Int32
    /// The directory the file lives in, open for the `*at` calls (so a renamed or replaced
    /// directory path cannot send the final rename elsewhere).
    private var directory: Int32
    private let name: String
    /// The hidden name while the file has one (the named fallback, or `.immediately`'s path).
    private var temporaryName: String?
    /// Device and inode of our file, to remove only what is still ours.
    private var identity: (dev: UInt, ino: UInt) = (0, 0)
    /// Whether the path's device, FIFO or stream is written itself: no temporary, nothing to rename
    /// or remove, and the content is visible as it is written.
    public private(set) var writesDirectly = false
    private var finished = false

    private let unnamed: Bool
    private let nameCandidate: () -> String

    /// Creates the file. Fails with the system's reason (no such directory, read-only file
    /// system, permission denied, …) naming `path`.
    /// - Parameters:
    ///   - unnamed: false uses the hidden-name scheme even where `O_TMPFILE` works (as on file
    ///     systems without it).
    ///   - temporaryNames: where hidden names come from (default: random); tests pass fixed
    ///     names to plant links at them.
    public init(path: String, placement: Placement = .onCommit, unnamed: Bool = true,
                temporaryNames: (() -> String)? = nil) throws(FileError) {
        self.path = path
        self.placement = placement
        self.unnamed = unnamed
        let (dirPath, base) = PendingFile.split(path)
        nameCandidate = temporaryNames ?? { PendingFile.randomName(for: base) }
        name = base
        descriptor = -1
        guard !base.isEmpty, base != ".", base != ".." else { throw FileError(operation: "create", path: path, code: EISDIR) }
        directory = open(dirPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory < 0 { throw FileError(operation: "create", path: path, code: errno) }
        do {
            try create()
        } catch {
            close(directory)
            directory = -1
            throw error
        }
    }

    deinit {
        if !finished { discard() }
    }

    private func create() throws(FileError) {
        var st = stat()
        if placement != .never && fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            let type = st.st_mode & S_IFMT
            if type == S_IFDIR { throw FileError(operation: "create", path: path, code: EISDIR) }
            if type == S_IFLNK, let fd = try openLinkedStream() {
                descriptor = fd
                writesDirectly = true
                return
            }
            if type == S_IFCHR || type == S_IFIFO {
                // no temporary for a device or a pipe: renaming over /dev/null would replace it
                let fd = openat(directory, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
                if fd < 0 { throw FileError(operation: "open", path: path, code: errno) }
                var now = stat()
                if fstat(fd, &now) == 0 && (now.st_mode & S_IFMT) != S_IFREG {
                    descriptor = fd
                    writesDirectly = true
                    return
                }
                close(fd)   // it became a regular file meanwhile: go the usual way
            }
            if type == S_IFREG && placement == .onCommit { PendingFile.releaseCachedPages(of: name, in: directory) }
        }
        descriptor = unnamed ? PendingFile.openUnnamed(in: directory) : -1
        if !unnamed { errno = EOPNOTSUPP }
        if descriptor < 0 {
            if errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOENT {
                throw FileError(operation: "create", path: path, code: errno)
            }
            // no O_TMPFILE here (or no /proc to link it by): an exclusive, unpredictable name
            let (fd, temp) = try openNamed()
            descriptor = fd
            temporaryName = temp
            if placement == .never { unlinkat(directory, temp, 0); temporaryName = nil }
        }
        var own = stat()
        if fstat(descriptor, &own) == 0 { identity = (UInt(own.st_dev), UInt(own.st_ino)) }
        if placement == .immediately {
            do { try putInPlace() } catch {
                discard()
                throw error
            }
        }
    }

    /// For a link at the path: a descriptor for the stream it leads to when that is this process's
    /// standard output or error (a duplicate of it, so "-" and `/dev/stdout` write alike) or a
    /// FIFO; nil for any other target (the link is then replaced, never followed).
    private func openLinkedStream() throws(FileError) -> Int32? {
        var target = stat()
        guard fstatat(directory, name, &target, 0) == 0 else { return nil }
        for standard: Int32 in [1, 2] {
            var st = stat()
            if fstat(standard, &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino {
                let fd = fcntl(standard, F_DUPFD_CLOEXEC, 0)
                if fd < 0 { throw FileError(operation: "open", path: path, code: errno) }
                return fd
            }
        }
        guard target.st_mode & S_IFMT == S_IFIFO else { return nil }
        let fd = openat(directory, name, O_WRONLY | O_CLOEXEC)
        if fd < 0 { throw FileError(operation: "open", path: path, code: errno) }
        var now = stat()
        if fstat(fd, &now) == 0 && now.st_mode & S_IFMT == S_IFIFO { return fd }
        close(fd)   // the link changed meanwhile: replace it the usual way
        return nil
    }

    /// Flushes the file to disk and moves it to its path (for `.immediately`: flushes only).
    /// After a failure the temporary file is gone and nothing new is at the path.
    public func commit() throws(FileError) {
        guard !finished else { return }
        if fsync(descriptor) != 0 && errno != EINVAL && errno != EROFS {
            let e = FileError(operation: "write", path: path, code: errno)
            discard()
            throw e
        }
        if writesDirectly || placement != .onCommit {
            finish(closing: true)
            return
        }
        do { try putInPlace() } catch {
            discard()
            throw error
        }
        finish(closing: true)
    }

    /// Closes and removes the file: the temporary, or (`.immediately`) the output if it is still
    /// ours. Nothing is left at the path.
    public func discard() {
        guard !finished else { return }
        if !writesDirectly {
            if let temporaryName { unlinkat(directory, temporaryName, 0) }
            if placement == .immediately && temporaryName == nil && isStillOurs(name) { unlinkat(directory, name, 0) }
        }
        finish(closing: true)
    }

    private func finish(closing: Bool) {
        finished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        if directory >= 0 { close(directory) }
        directory = -1
    }

    private func isStillOurs(_ entry: String) -> Bool {
        var st = stat()
        return fstatat(directory, entry, &st, AT_SYMLINK_NOFOLLOW) == 0 && (UInt(st.st_dev), UInt(st.st_ino)) == identity
    }

    /// Gives the file its final name, replacing whatever entry is there (a link itself, not its
    /// target).
    private func putInPlace() throws(FileError) {
        if temporaryName == nil {
            // an unnamed file gets a hidden name first (link cannot replace), then is renamed
            temporaryName = try linkUnnamed()
        }
        guard let temp = temporaryName else { return }
        if renameat(directory, temp, directory, name) != 0 {
            let e = FileError(operation: "move the finished file to", path: path, code: errno)
            unlinkat(directory, temp, 0)
            temporaryName = nil
            throw e
        }
        temporaryName = nil
        // the rename itself on disk too (best effort: not every file system syncs directories)
        _ = fsync(directory)
    }

    /// The file this one will replace: its cached pages are dropped now, on another thread, so
    /// that the final rename, which frees the old file, does not spend tens of milliseconds on
    /// them at the end of the run (ffmpeg's `O_TRUNC` pays that at its start instead). Only a
    /// hint to the kernel: the old file itself is not touched, and stays whole until the rename.
    private static func releaseCachedPages(of name: String, in directory: Int32) {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        DispatchQueue.global(qos: .utility).async {
            _ = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
            close(fd)
        }
    }

    // MARK: - names

    /// `O_TMPFILE` where the file system and /proc (for `linkat`) allow it; -1 with errno otherwise.
    private static func openUnnamed(in directory: Int32) -> Int32 {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        guard PendingFile.procFDAvailable else { errno = ENOENT; return -1 }
        let O_TMPFILE: Int32 = 0o20000000 | O_DIRECTORY    // glibc's value on these architectures
        return openat(directory, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0o644)
        #else
        errno = EOPNOTSUPP
        return -1
        #endif
    }

    /// Whether /proc/self/fd exists, through which an unnamed file is given a name.
    private static let procFDAvailable: Bool = access("/proc/self/fd", X_OK) == 0

    private func linkUnnamed() throws(FileError) -> String {
        for _ in 0..<100 {
            let temp = nameCandidate()
            if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", directory, temp, AT_SYMLINK_FOLLOW) == 0 { return temp }
            if errno != EEXIST { throw FileError(operation: "move the finished file to", path: path, code: errno) }
        }
        throw FileError(operation: "move the finished file to", path: path, code: EEXIST)
    }

    private func openNamed() throws(FileError) -> (Int32, String) {
        for _ in 0..<100 {
            let temp = nameCandidate()
            let fd = openat(directory, temp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                // locked while we live, so the sweep of a later run knows the file is in use
                _ = flock(fd, LOCK_EX | LOCK_NB)
                removeStaleTemporaries(except: temp)
                return (fd, temp)
            }
            if errno != EEXIST { throw FileError(operation: "create", path: path, code: errno) }
        }
        throw FileError(operation: "create", path: path, code: EEXIST)
    }

    /// How old an unlocked hidden file of this output must be before it counts as left by a
    /// killed run (a younger one may belong to a run that has created it and not yet locked it).
    static let staleAge = 60
    /// Directory entries a sweep looks at, at most.
    static let sweepEntries = 10_000

    /// Removes hidden files of this output (`.NAME.<16 hex digits>.partial`) that a killed run
    /// left: regular files, not locked by a running writer, older than `staleAge` seconds. Best
    /// effort: anything unexpected is left alone, and only the first `sweepEntries` entries of
    /// the directory are looked at (an image sequence writes many files into one directory).
    private func removeStaleTemporaries(except ours: String) {
        let prefix = "." + PendingFile.shortened(name) + "."
        let copy = dup(directory)
        guard copy >= 0, let listing = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return
        }
        defer { closedir(listing) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seen = 0
        while seen < PendingFile.sweepEntries, let entry = readdir(listing) {
            seen += 1
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName != ours, entryName.hasPrefix(prefix), entryName.hasSuffix(".partial") else { continue }
            let random = entryName.dropFirst(prefix.count).dropLast(".partial".count)
            guard random.count == 16, random.allSatisfy(\.isHexDigit) else { continue }
            let fd = openat(directory, entryName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG,
                  now.tv_sec - st.st_mtim.tv_sec > PendingFile.staleAge,
                  flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            // still the file we checked (not replaced since): then it is a leftover
            var again = stat()
            if fstatat(directory, entryName, &again, AT_SYMLINK_NOFOLLOW) == 0 && again.st_ino == st.st_ino && again.st_dev == st.st_dev {
                unlinkat(directory, entryName, 0)
            }
        }
    }

    /// NAME cut to whole characters within 200 bytes, as in hidden names.
    static func shortened(_ name: String) -> String {
        var base = ""
        for ch in name {
            if base.utf8.count + String(ch).utf8.count > 200 { break }
            base.append(ch)
        }
        return base
    }

    /// `.NAME.<16 random hex digits>.partial`, NAME shortened so the whole fits in 255 bytes.
    static func randomName(for name: String) -> String {
        let base = shortened(name)
        let hex = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return "." + base + "." + String(repeating: "0", count: 16 - hex.count) + hex + ".partial"
    }

    /// Directory and file name of a path ("." for a bare name).
    static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }
}
