import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Corrupt elementary streams fail with the byte offset of the damage, without crashing.
@Suite struct CorruptInputTests {
    @Test func annexBWithoutStartCode() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let path = dir.file("junk.h264")
        try Data("this is not a video".utf8).write(to: URL(fileURLWithPath: path))
        let e = #expect(throws: ElementaryStreamError.self) { _ = try AnnexBReader(path: path, codec: .h264).next() }
        #expect(e?.offset == 0)
        #expect(e?.description == "\(path): byte 0: expected a start code (00 00 01 or 00 00 00 01), found 74 68 69 73")
    }

    @Test func annexBWithBrokenNALHeader() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: src.h264)))
        // The 6th start code's NAL header gets its forbidden bit set.
        var found = 0, headerOffset = -1
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 1 {
                found += 1
                if found == 6 { headerOffset = i + 3; break }
                i += 3
            } else { i += 1 }
        }
        bytes[headerOffset] |= 0x80
        let path = dir.file("broken.h264")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try H264StreamReader(path: path)
        let e = #expect(throws: ElementaryStreamError.self) { while try reader.next() != nil {} }
        #expect(e?.offset == Int64(headerOffset))
        #expect(e?.message.contains("forbidden_zero_bit") == true)
    }

    @Test func truncatedIVF() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir, seconds: 1)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: src.ivf)))
        // Walk the frame headers (32-byte file header, 12-byte frame headers) to frame 10.
        var offset = 32
        for _ in 0..<10 {
            let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            offset += 12 + size
        }
        let path = dir.file("cut.ivf")
        try Data(bytes[0..<(offset + 15)]).write(to: URL(fileURLWithPath: path))
        let reader = try IVFReader(path: path)
        var frames = 0
        let e = #expect(throws: ElementaryStreamError.self) { while try reader.next() != nil { frames += 1 } }
        #expect(frames == 10)
        #expect(e?.offset == Int64(offset))
        #expect(e?.message.hasPrefix("file ends inside a frame") == true)

        let bad = dir.file("bad.ivf")
        try Data("RIFF0000000000000000000000000000".utf8).write(to: URL(fileURLWithPath: bad))
        let sig = #expect(throws: ElementaryStreamError.self) { _ = try IVFReader(path: bad) }
        #expect(sig?.description == "\(bad): byte 0: expected the IVF signature \"DKIF\"")
    }

    @Test func adtsWithBrokenSync() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir, seconds: 1)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: src.adts)))
        var offset = 0
        for _ in 0..<5 {
            let length = Int(bytes[offset + 3] & 3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5] >> 5)
            offset += length
        }
        bytes[offset] = 0x12
        let path = dir.file("broken.aac")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let reader = try ADTSReader(path: path)
        var frames = 0
        let e = #expect(throws: ElementaryStreamError.self) { while try reader.next() != nil { frames += 1 } }
        #expect(frames == 5)
        #expect(e?.offset == Int64(offset))
        #expect(e?.message.hasPrefix("expected an ADTS sync word") == true)
    }

    @Test func randomBytesNeverCrash() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Start like a real file so the readers get past the first check.
            if round % 2 == 0 { bytes.replaceSubrange(0..<5, with: [0, 0, 0, 1, 0x67]) }
            let path = dir.file("r\(round)")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if let r = try? H264StreamReader(path: path) { while (try? r.next()) != nil {} }
            if let r = try? AnnexBReader(path: path, codec: .hevc) { while (try? r.next()) != nil {} }
            if let r = try? IVFReader(path: path) { while (try? r.next()) != nil {} }
            if let r = try? ADTSReader(path: path) { while (try? r.next()) != nil {} }
        }
    }
}
