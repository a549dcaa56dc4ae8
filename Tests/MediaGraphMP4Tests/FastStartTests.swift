import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Fast start puts the moov in front of media already written: in the reserved first block, in
/// blocks inserted at the start of the file (ext4 under /tmp), or by copying the media behind it
/// where the file system cannot insert (tmpfs). Each way the file decodes to ffmpeg's frames.
@Suite struct FastStartTests {
    /// Top-level boxes as (type, size).
    static func boxes(_ path: String) throws -> [(String, Int)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var out: [(String, Int)] = []
        var i = 0
        while i + 8 <= data.count {
            var size = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            if size == 1, i + 16 <= data.count { size = (0..<8).reduce(0) { $0 << 8 | Int(data[i + 8 + $1]) } }
            out.append((String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self), size))
            if size < 8 { break }
            i += size
        }
        return out
    }

    /// 20 s (500 frames with B-frames, ~940 AAC frames): a moov of more than one 4 KiB block.
    @Test(arguments: [false, true])
    func largeMoovGoesInFront(onTmpfs: Bool) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 20)
        let outDir = dir.file("out")
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        if onTmpfs {
            guard mount("tmpfs", outDir, "tmpfs", 0, "size=64m") == 0 else {
                Issue.record("mounting a tmpfs needs root: \(String(cString: strerror(errno)))")
                return
            }
        }
        defer { if onTmpfs { umount(outDir) } }
        let out = outDir + "/fast.mp4"
        let counts = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out))
        let boxes = try Self.boxes(out)
        #expect(boxes.map(\.0).prefix(2) == ["ftyp", "moov"], "\(boxes)")
        #expect((boxes.first { $0.0 == "moov" }?.1 ?? 0) > 4096, "the moov should need more than the reserved block")
        #expect(boxes.map(\.0).last == "mdat", "\(boxes)")
        #expect(try decodeErrors(out) == "")
        #expect(try frameMD5(out) == frameMD5(src.mp4))
        let audio = try probeStreams(out).first { $0["codec_type"] as? String == "audio" } ?? [:]
        #expect(intValue(audio["nb_read_frames"]) == counts.audioFrames)
        #expect((try FileManager.default.contentsOfDirectory(atPath: outDir)) == ["fast.mp4"], "no scratch file left behind")
    }

    /// A moov that fits in the reserved block: no insertion, the same layout.
    @Test func smallMoovFitsTheReservedBlock() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let out = dir.file("fast.mp4")
        _ = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out))
        let boxes = try Self.boxes(out)
        #expect(boxes.map(\.0).prefix(2) == ["ftyp", "moov"], "\(boxes)")
        #expect(boxes.prefix { $0.0 != "mdat" }.reduce(0) { $0 + $1.1 } == 4096 - 8, "header and padding fill one block: \(boxes)")
        #expect(try frameMD5(out) == frameMD5(src.mp4))
    }
}
