import MediaGraphCore

/// A file the MP4 module writes: MediaGraphCore's `FileWriter` (exclusive temporary in the target
/// directory, buffered writes, fsync and rename on `closeFile`), with its errors as `MP4IOError`
/// naming the file, the byte offset and the system's reason (disk full, file too large, …).
final class OutputFile {
    let path: String
    private let writer: FileWriter

    /// Bytes written so far (including those still buffered): the offset of the next write.
    var position: UInt64 { writer.position }

    /// - Parameter placement: `.onCommit` (appears at `path` when closed), `.immediately`
    ///   (fragmented MP4: readable at `path` while written), `.never` (scratch beside `path`).
    init(path: String, placement: PendingFile.Placement = .onCommit, bufferSize: Int = 1 << 20) throws {
        self.path = path
        do { writer = try FileWriter(path: path, placement: placement, bufferSize: bufferSize) } catch { throw MP4IOError(error) }
    }

    /// Standard output, a device or a FIFO: written as it goes, not a new file (see `FileWriter`).
    var writesDirectly: Bool { writer.writesDirectly }
    /// False for a pipe or a terminal.
    var isSeekable: Bool { writer.isSeekable }

    func write(_ bytes: [UInt8]) throws {
        do { try writer.write(bytes) } catch { throw MP4IOError(error) }
    }

    /// A packet's bytes: large ones are kept and written on another thread, not copied.
    func write(_ bytes: PacketBytes) throws {
        do { try writer.write(bytes) } catch { throw MP4IOError(error) }
    }

    func write(_ raw: UnsafeRawBufferPointer) throws {
        do { try writer.write(raw) } catch { throw MP4IOError(error) }
    }

    /// Hands buffered bytes to the kernel. After this a killed process still leaves them on disk.
    func flush() throws {
        do { try writer.flush() } catch { throw MP4IOError(error) }
    }

    /// Overwrites bytes already written (size fields patched at the end).
    func patch(_ bytes: [UInt8], at offset: UInt64) throws {
        do { try writer.patch(bytes, at: offset) } catch { throw MP4IOError(error) }
    }

    /// Copies what was written to a scratch file, from byte `start` on, to the end of this one.
    func append(contentsOf source: OutputFile, from start: UInt64 = 0) throws {
        do { try writer.append(contentsOf: source.writer, from: start) } catch { throw MP4IOError(error) }
    }

    /// The file system's block size (`insertGap` cuts on its multiples).
    var blockSize: Int { writer.blockSize }

    /// Opens a gap of zeros at `offset` without copying what follows; false where the file
    /// system cannot (the caller then copies).
    func insertGap(at offset: UInt64, count: UInt64) throws -> Bool {
        do { return try writer.insertGap(at: offset, count: count) } catch { throw MP4IOError(error) }
    }

    /// Completes the file: it appears at its path (or, for scratch, is released).
    func closeFile() throws {
        do { try writer.commit() } catch { throw MP4IOError(error) }
    }

    /// Stops and removes the file; nothing is left at the path.
    func discard() { writer.discard() }
}

extension MP4IOError {
    init(_ e: FileError) {
        self.init(operation: e.operation, path: e.path, offset: e.offset, code: e.code)
    }
}
