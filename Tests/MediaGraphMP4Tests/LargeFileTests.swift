import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Past 4 GiB of media the muxer switches to 64-bit chunk offsets by itself. Writes 4.3 GB, so
/// it runs only with MP4_LARGE_TESTS=1.
@Suite struct LargeFileTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MP4_LARGE_TESTS"] != nil))
    func automaticCo64PastFourGiB() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let out = dir.file("large.mp4")
        let muxer = try MP4Muxer(path: out, options: MP4MuxerOptions(fastStart: false))
        let track = try muxer.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25,
                                            configuration: .vpx(VPXConfiguration(codec: .vp9)))
        let count = 4200
        var payload = [UInt8](repeating: 0, count: 1 << 20)
        for i in 0..<count {
            // Each sample starts with its own number, so the bytes at an offset identify it.
            withUnsafeBytes(of: UInt32(i).bigEndian) { payload.replaceSubrange(0..<4, with: $0) }
            try muxer.append(MP4Sample(data: payload, pts: Int64(i), isSync: i % 25 == 0), to: track)
        }
        try muxer.finish()
        #expect(try contains(out, fourCC: "co64"))
        let j = try ffprobe(out, ["-show_entries", "packet=pos,size"])
        let packets = (j["packets"] as? [[String: Any]] ?? []).compactMap { p -> (Int, Int)? in
            guard let pos = intValue(p["pos"]), let size = intValue(p["size"]) else { return nil }
            return (pos, size)
        }
        #expect(packets.count == count)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: out))
        defer { try? handle.close() }
        for index in [0, 4095, 4096, count - 1] {
            let (pos, size) = packets[index]
            #expect(size == 1 << 20)
            try handle.seek(toOffset: UInt64(pos))
            let head = [UInt8](handle.readData(ofLength: 4))
            #expect(head == [UInt8(index >> 24), UInt8((index >> 16) & 0xFF), UInt8((index >> 8) & 0xFF), UInt8(index & 0xFF)])
        }
        #expect(packets[count - 1].0 > Int(UInt32.max))
    }
}
