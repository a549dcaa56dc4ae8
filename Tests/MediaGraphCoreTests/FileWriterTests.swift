import Foundation
import MediaGraphCore
import Testing

/// `FileWriter`'s two paths — small writes staged in its buffer, large ones written from the
/// caller's memory behind the buffered bytes (`writev`) — and the early writeback keep the file
/// exactly the concatenation of what was written (checked against the bytes built here).
@Suite struct FileWriterTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "mg-writer-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    /// `count` bytes of a pattern that differs from piece to piece.
    func piece(_ count: Int, _ seed: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ 1) } }

    /// Both ways of writing: here (`writeBehind: false`) and on another thread (the default for a
    /// kept regular file), where packets and arrays are kept, not copied, and the staging buffers
    /// go round.
    @Test(arguments: [(4096, false), (1 << 20, false), (4096, true), (1 << 20, true)])
    func mixedSizesLandInOrder(bufferSize: Int, behind: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.bin"
        let w = try FileWriter(path: out, bufferSize: bufferSize, writeBehind: behind)
        var expected: [UInt8] = []
        // around both thresholds (half the buffer, 64 KiB) and beyond the buffer, with small
        // writes between that leave bytes buffered in front of the large ones; > 4 MiB in all so
        // writeback starts on the way
        let sizes = [8, 2047, 2048, 100, 65535, 65536, 3, 200_000, 1 << 20, (1 << 20) + 1, 17, 140_000, 900_000, 5, 3_000_000, 1]
        for (k, n) in sizes.enumerated() {
            let p = piece(n, k)
            switch k % 3 {
            case 0: try w.write(p)
            case 1: try w.write(PacketBytes(p))
            default: try p.withUnsafeBytes { raw in try w.write(raw) }
            }
            expected += p
            #expect(w.position == UInt64(expected.count))
        }
        // a size field patched at the end, as the MP4 muxer does
        try w.patch([0xDE, 0xAD, 0xBE, 0xEF], at: 2050)
        expected.replaceSubrange(2050..<2054, with: [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(!FileManager.default.fileExists(atPath: out), "nothing at the path before commit")
        try w.commit()
        let got = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        #expect(got.count == expected.count)
        #expect(got == expected, "first difference at byte \(zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, expected.count))")
    }

    @Test func writingBehindToAFullDiskNamesTheOffset() throws {
        // on another thread the failure comes back at a later call, still with its byte offset
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let w = try FileWriter(path: "/dev/full", writeBehind: true)
        try w.write(piece(10, 0))
        let expected = FileError(operation: "write", path: "/dev/full", offset: 0, code: ENOSPC)
        do {
            // the packet may or may not have failed by the time the second one is handed over
            try w.write(PacketBytes(piece(100_000, 1)))
            try w.write(PacketBytes(piece(100_000, 2)))
            try w.flush()
            Issue.record("no failure writing to /dev/full")
        } catch {
            #expect(error == expected)
        }
        #expect(throws: expected) { try w.commit() }
    }

    @Test func largeWriteToAFullDiskNamesTheOffset() throws {
        // /dev/full: every write fails with ENOSPC; a large write must report it, not loop
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let w = try FileWriter(path: "/dev/full")
        try w.write(piece(10, 0))
        // the buffered 10 bytes go first, in the same writev: the failure is at byte 0
        #expect(throws: FileError(operation: "write", path: "/dev/full", offset: 0, code: ENOSPC)) { try w.write(piece(100_000, 1)) }
    }
}
