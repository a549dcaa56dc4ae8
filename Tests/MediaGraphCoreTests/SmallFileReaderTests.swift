import Foundation
import MediaGraphCore
import Testing

/// The one reader of small files (graph files, .cube LUTs, shaders): the limit, the prefix read a
/// compiler reports itself, and refusing what is not a regular file without blocking on it.
@Suite struct SmallFileReaderTests {
    static func file(_ count: Int) -> String {
        let path = NSTemporaryDirectory() + "mg-small-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        return path
    }

    @Test func theLimitIsExact() throws {
        let atLimit = Self.file(1000), over = Self.file(1001)
        defer { for p in [atLimit, over] { try? FileManager.default.removeItem(atPath: p) } }
        #expect(try SmallFileReader.read(atLimit, limit: 1000) == (0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        #expect(throws: SmallFileReader.Failure.tooLarge(limit: 1000)) { try SmallFileReader.read(over, limit: 1000) }
        // the prefix: one byte past the limit, no error (the caller reports where the limit is)
        #expect(try SmallFileReader.readPrefix(over, limit: 500).count == 501)
        #expect(try SmallFileReader.readPrefix(atLimit, limit: 2000).count == 1000)
    }

    @Test func whatIsNotARegularFile() throws {
        let dir = NSTemporaryDirectory() + "mg-small-dir-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // no writer: opening it blocking would wait forever
        #expect(throws: SmallFileReader.Failure.notRegularFile) { try SmallFileReader.read(fifo, limit: 100, regularFileOnly: true) }
        #expect(throws: SmallFileReader.Failure.notRegularFile) { try SmallFileReader.readPrefix("/dev/zero", limit: 100, regularFileOnly: true) }
        // without the check an endless device still ends at the limit
        #expect(throws: SmallFileReader.Failure.tooLarge(limit: 100)) { try SmallFileReader.read("/dev/zero", limit: 100) }
        #expect(throws: SmallFileReader.Failure.isDirectory) { try SmallFileReader.read(dir, limit: 100) }
        #expect(throws: SmallFileReader.Failure.isDirectory) { try SmallFileReader.read(dir, limit: 100, regularFileOnly: true) }
        #expect(throws: SmallFileReader.Failure.unreadable("No such file or directory")) {
            try SmallFileReader.read(dir + "/missing", limit: 100)
        }
    }
}
