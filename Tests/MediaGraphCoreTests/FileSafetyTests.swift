#if canImport(Glibc)
import Glibc
#endif
import Foundation
import MediaGraphCore
import Testing

/// The one way outputs are written (`PendingFile`, `FileWriter`): exclusive temporary in the
/// target directory, never through a planted link, renamed into place, nothing left behind.
@Suite struct FileSafetyTests {
    let dir: String = {
        let d = NSTemporaryDirectory() + "mg-files-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }()

    func listing() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }
    func read(_ p: String) -> String? { FileManager.default.contents(atPath: p).map { String(decoding: $0, as: UTF8.self) } }
    func isLink(_ p: String) -> Bool { (try? FileManager.default.destinationOfSymbolicLink(atPath: p)) != nil }

    func write(_ text: String, to f: PendingFile) {
        let n = text.utf8.count
        #expect(text.withCString { Glibc.write(f.descriptor, $0, n) } == n)
    }

    /// Where hidden names are used (file systems without O_TMPFILE), a run killed while writing
    /// leaves `.NAME.<hex>.partial`: the next output of that name removes it — but not one a
    /// running writer holds (locked), nor a young one, nor anything else.
    @Test func leftoversOfAKilledRunAreSweptLiveOnesKept() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.mp4"
        func plant(_ name: String, ageSeconds: Double) -> String {
            let p = dir + "/" + name
            #expect(FileManager.default.createFile(atPath: p, contents: Data("x".utf8)))
            try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -ageSeconds)], ofItemAtPath: p)
            return p
        }
        let stale = plant(".out.mp4.00112233445566ff.partial", ageSeconds: 600)
        let live = plant(".out.mp4.0a0b0c0d0e0f1011.partial", ageSeconds: 600)
        let young = plant(".out.mp4.1111111111111111.partial", ageSeconds: 1)
        let otherOutput = plant(".other.mp4.2222222222222222.partial", ageSeconds: 600)
        let notOurs = plant(".out.mp4.download.partial", ageSeconds: 600)
        // a writer that is still running holds its file locked
        let liveFD = open(live, O_RDONLY)
        #expect(liveFD >= 0 && flock(liveFD, LOCK_EX | LOCK_NB) == 0)
        defer { close(liveFD) }

        let f = try PendingFile(path: out, unnamed: false)
        write("new", to: f)
        try f.commit()
        #expect(!FileManager.default.fileExists(atPath: stale), "left by a killed run: removed")
        for kept in [live, young, otherOutput, notOurs] {
            #expect(FileManager.default.fileExists(atPath: kept), "\(kept) must stay")
        }
        #expect(read(out) == "new")
    }

    @Test(arguments: [true, false])
    func appearsOnlyOnCommitAndLeavesNothingOnDiscard(unnamed: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/out.bin"
        let f = try PendingFile(path: out, unnamed: unnamed)
        write("hello", to: f)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(listing().count == (unnamed ? 0 : 1), "unnamed: no entry at all while writing; else one hidden one")
        try f.commit()
        #expect(read(out) == "hello")
        #expect(listing() == ["out.bin"])
        let g = try PendingFile(path: out, unnamed: unnamed)
        write("partial", to: g)
        g.discard()
        #expect(read(out) == "hello", "a discarded write leaves the old file as it was")
        #expect(listing() == ["out.bin"])
        do { _ = try PendingFile(path: out, unnamed: unnamed) }   // dropped without commit
        #expect(listing() == ["out.bin"])
    }

    /// Links planted at the hidden names the writer will try, and at the output itself, point
    /// at a file the user can write: none of them is written through.
    @Test(arguments: [true, false])
    func plantedLinksDoNotRedirectTheWrite(unnamed: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        let out = dir + "/out.bin"
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: victim)
        for n in [".guess1", ".guess2"] { try FileManager.default.createSymbolicLink(atPath: dir + "/" + n, withDestinationPath: victim) }
        try FileManager.default.createSymbolicLink(atPath: dir + "/.dangling", withDestinationPath: dir + "/created-through-link")
        var names = [".guess1", ".dangling", ".guess2", ".fresh"].makeIterator()
        let f = try PendingFile(path: out, unnamed: unnamed, temporaryNames: { names.next() ?? ".other" })
        write("new data", to: f)
        try f.commit()
        #expect(read(victim) == "precious")
        #expect(!isLink(out) && read(out) == "new data", "the link at the output is replaced by the file, not followed")
        #expect(!FileManager.default.fileExists(atPath: dir + "/created-through-link"))
        #expect(listing() == [".dangling", ".guess1", ".guess2", "out.bin", "victim"])
    }

    @Test func immediatePlacementReplacesALinkAndDiscardRemovesOnlyItsOwnFile() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let victim = dir + "/victim", out = dir + "/frag.mp4"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: victim)
        let f = try PendingFile(path: out, placement: .immediately)
        write("moof", to: f)
        #expect(!isLink(out) && read(out) == "moof", "visible while written, as a file of its own")
        #expect(read(victim) == "precious")
        f.discard()
        #expect(listing() == ["victim"])
        // someone else's file at the path by the time of discard is left alone
        let g = try PendingFile(path: out, placement: .immediately)
        try FileManager.default.removeItem(atPath: out)
        try "theirs".write(toFile: out, atomically: false, encoding: .utf8)
        g.discard()
        #expect(read(out) == "theirs")
    }

    @Test func scratchNeverAppearsAndIsCopiedBack() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/a.mp4"
        let scratch = try FileWriter(path: out, placement: .never)
        for i in 0..<1000 { try scratch.write(Array("line \(i)\n".utf8)) }
        #expect(listing().isEmpty)
        let final = try FileWriter(path: out)
        try final.write(Array("head\n".utf8))
        try final.append(contentsOf: scratch)
        try final.patch(Array("HEAD".utf8), at: 0)
        try final.commit()
        scratch.discard()
        #expect(read(out) == "HEAD\n" + (0..<1000).map { "line \($0)\n" }.joined())
        #expect(listing() == ["a.mp4"])
    }

    @Test func devicesAreWrittenDirectlyAndDirectoriesRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let null = try FileWriter(path: "/dev/null")
        try null.write(Array("x".utf8))
        try null.commit()
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "/dev/null is still the device")
        #expect(throws: FileError(operation: "create", path: dir, code: EISDIR)) { _ = try PendingFile(path: dir) }
        #expect(throws: FileError(operation: "create", path: dir + "/no/such/x", code: ENOENT)) { _ = try PendingFile(path: dir + "/no/such/x") }
        #expect((try? PendingFile(path: dir + "/.")) == nil)
        #expect(FileError(operation: "write", path: "/o.y4m", offset: 7, code: ENOSPC).description
                == "cannot write /o.y4m at byte 7: No space left on device (the disk is full)")
    }

    /// A 64 KiB tmpfs fills up: the error names file, offset and reason; nothing is left.
    @Test(arguments: [true, false])
    func fullDiskLeavesNothing(unnamed: Bool) throws {
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard mount("tmpfs", dir, "tmpfs", 0, "size=64k") == 0 else {
            Issue.record("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
            return
        }
        defer { umount(dir) }
        let w = try FileWriter(path: dir + "/big.y4m", bufferSize: 4096)
        var failure: FileError?
        do {
            for _ in 0..<100 { try w.write([UInt8](repeating: 1, count: 4096)) }
            try w.commit()
        } catch {
            failure = error
        }
        #expect(failure?.code == ENOSPC)
        #expect(failure?.description.hasPrefix("cannot write \(dir)/big.y4m at byte ") == true, "\(String(describing: failure))")
        #expect(failure?.description.hasSuffix(": No space left on device (the disk is full)") == true)
        w.discard()
        #expect(listing().isEmpty)
    }
}
