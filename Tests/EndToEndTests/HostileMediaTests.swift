import Foundation
import Testing
import MediaGraphCore
import MediaGraphNodes

/// Hand-made hostile media (Y4M, WAV, raw sizes, .cube, Annex B, IVF timestamps): each gives its
/// exact message naming the file and byte offset (or line), through the readers and through the
/// CLI (exit 1 or 2, within 5 s, nothing left at the output path).
@Suite struct HostileMediaTests {
    // MARK: Y4M

    static func y4mError(_ header: String, frame: [UInt8] = []) -> String? {
        let bytes = Array((header + "\n").utf8) + (frame.isEmpty ? [] : Array("FRAME\n".utf8) + frame)
        do {
            let reader = try Y4MReader(bytes: bytes, name: "hostile.y4m")
            while try reader.next() != nil {}
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test func y4mHeaderNumbers() {
        #expect(Self.y4mError("YUV4MPEG2 W999999999 H4 F25:1")
            == "'hostile.y4m': byte 10: width 'W999999999' in the YUV4MPEG2 header is above the limit of 16384")
        #expect(Self.y4mError("YUV4MPEG2 W4 H99999999999999999999999 F25:1")
            == "'hostile.y4m': byte 13: bad height 'H99999999999999999999999' in the YUV4MPEG2 header (expected H and a positive integer)")
        #expect(Self.y4mError("YUV4MPEG2 W16384 H16384 F25:1 C444", frame: [1, 2, 3])
            == "'hostile.y4m': byte 10: frame size 16384x16384 has 268435456 pixels, above the limit of 67108864 (2^26) (W and H in the YUV4MPEG2 header)")
        #expect(Self.y4mError("YUV4MPEG2 W4 H4 F9223372036854775807:1")
            == "'hostile.y4m': byte 16: frame rate 'F9223372036854775807:1' in the YUV4MPEG2 header has a term above the limit of 2147483647")
        #expect(Self.y4mError("YUV4MPEG2 W4 H4 F99999999999999999999:1")
            == "'hostile.y4m': byte 16: bad frame rate 'F99999999999999999999:1' in the YUV4MPEG2 header (expected F<num>:<den>, e.g. F30:1)")
        #expect(Self.y4mError("YUV4MPEG2 W4 H4 F30000:0")
            == "'hostile.y4m': byte 16: bad frame rate 'F30000:0' in the YUV4MPEG2 header (expected F<num>:<den>, e.g. F30:1)")
        #expect(Self.y4mError("YUV4MPEG2 W4 H4 F25:1 A4294967296:1")
            == "'hostile.y4m': byte 22: pixel aspect 'A4294967296:1' in the YUV4MPEG2 header has a term above the limit of 2147483647")
        #expect(Self.y4mError("YUV4MPEG2 W4 H4 F25:1 A1:x")
            == "'hostile.y4m': byte 22: bad pixel aspect 'A1:x' in the YUV4MPEG2 header (expected A<num>:<den>, e.g. A1:1, or A0:0 for unknown)")
    }

    @Test func y4mWithinTheLimitsIsRead() throws {
        let header = "YUV4MPEG2 W6 H4 F30000:1001 Ip A0:0 C420jpeg"
        let frame = [UInt8](repeating: 7, count: 6 * 4 + 2 * 3 * 2)
        let bytes = Array((header + "\nFRAME\n").utf8) + frame
        let reader = try Y4MReader(bytes: bytes, name: "ok.y4m")
        #expect(reader.format.width == 6 && reader.format.height == 4)
        #expect(reader.format.frameRate == Rational(30000, 1001))
        #expect(reader.format.sampleAspect == Rational(0, 1))   // A0:0: unknown, as ffmpeg reads it
        #expect(try reader.next() != nil)
        #expect(try reader.next() == nil)
    }

    // MARK: WAV

    static func wav(channels: UInt16 = 2, rate: UInt32 = 44100, bits: UInt16 = 16, fmtSize: UInt32 = 16,
                    extra: (String, UInt32, [UInt8])? = nil, dataSize: UInt32, data: [UInt8]) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var b = Array("RIFF".utf8) + le32(0xFFFF_FFFF) + Array("WAVE".utf8)
        if let (id, size, payload) = extra { b += Array(id.utf8) + le32(size) + payload }
        let blockAlign = UInt16(truncatingIfNeeded: Int(channels) * Int(bits) / 8)
        b += Array("fmt ".utf8) + le32(fmtSize) + le16(1) + le16(channels) + le32(rate)
            + le32(rate &* UInt32(blockAlign)) + le16(blockAlign) + le16(bits)
        b += Array("data".utf8) + le32(dataSize) + data
        return b
    }

    static func wavError(_ bytes: [UInt8]) -> String? {
        do {
            let reader = try WAVReader(bytes: bytes, name: "hostile.wav")
            while try reader.read(maxFrames: 1024) != nil {}
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test func wavChunkSizes() {
        #expect(Self.wavError(Self.wav(dataSize: 0xFFFF_FFF0, data: [UInt8](repeating: 0, count: 10)))
            == "'hostile.wav': byte 36: data chunk size 4294967280 is beyond the end of the file (10 bytes follow its header); cut short while written? filesrc reads what is there, with \"errors\": \"skip\"")
        #expect(Self.wavError(Self.wav(extra: ("LIST", 0xFFFF_FFF0, [UInt8](repeating: 0, count: 20)), dataSize: 4, data: [0, 0, 0, 0]))
            == "'hostile.wav': byte 12: chunk 'LIST' of 4294967280 bytes is cut off by the end of the file after 56")
        #expect(Self.wavError(Self.wav(fmtSize: 0xFFFF_FFF0, dataSize: 4, data: [0, 0, 0, 0]))
            == "'hostile.wav': byte 12: fmt chunk size 4294967280 is not in 16…1023")
    }

    @Test func wavFormatFields() {
        #expect(Self.wavError(Self.wav(channels: 0xFFFF, dataSize: 4, data: [0, 0, 0, 0]))
            == "'hostile.wav': byte 22: 65535 channels; expected 1 to 8")
        #expect(Self.wavError(Self.wav(rate: 0xFFFF_FFFF, dataSize: 4, data: [0, 0, 0, 0]))
            == "'hostile.wav': byte 24: sample rate 4294967295 is not in 1…768000")
        #expect(Self.wavError(Self.wav(bits: 0xFFFF, dataSize: 4, data: [0, 0, 0, 0]))
            == "'hostile.wav': byte 34: 65535-bit PCM is not supported; expected 8, 16, 24, 32")
        // A streamed header (size 0xFFFFFFFF) reads to the end; a cut sample frame is named.
        #expect(Self.wavError(Self.wav(dataSize: 0xFFFF_FFFF, data: [1, 2, 3, 4, 5, 6]))
            == "'hostile.wav': truncated sample frame at byte 50 (2 of 4 bytes)")
    }

    @Test func wavWithinTheLimitsIsRead() throws {
        // Two stereo 16-bit frames: (0, −32768), (16384, 32767) → floats by /32768.
        let reader = try WAVReader(bytes: Self.wav(dataSize: 8, data: [0, 0, 0, 0x80, 0, 0x40, 0xFF, 0x7F]), name: "ok.wav")
        let chunk = try #require(try reader.read(maxFrames: 10))
        #expect(chunk.count == 2)
        let floats = chunk.bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats == [0, 0.5, -1, Float(32767) / 32768])
        #expect(try reader.read(maxFrames: 10) == nil)
    }

    // MARK: through the CLI

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var bytes: [UInt8]
        var nodes: String
        var message: String
        var testDescription: String { name }
    }

    static let sink = #""out": { "type": "y4msink", "params": { "path": "out.y4m" } }"#

    /// The SPS (Main profile, 64×64) of a stream whose VUI claims max_num_reorder_frames = 2^31,
    /// then a PPS and the start of an IDR slice; built bit by bit by hand.
    static let reorderSPS: [UInt8] = [
        0x00, 0x00, 0x00, 0x01, 0x67, 0x4d, 0x00, 0x1e, 0xe3, 0x50, 0x84, 0xd0, 0x0d, 0xa0, 0x88, 0x44,
        0x00, 0x00, 0x03, 0x00, 0x04, 0x00, 0x00, 0x03, 0x00, 0x08, 0x00, 0x00, 0x03, 0x00, 0x08, 0x00,
        0x00, 0x03, 0x00, 0x18, 0x00, 0x00, 0x00, 0x01, 0x68, 0xcc, 0x00, 0x00, 0x00, 0x01, 0x65, 0x88,
        0x84, 0x00, 0x01, 0x69, 0x6a,
    ]

    /// An IVF file (VP8, 64×48, time base 1/30) with frames at the given timestamps (1 byte each).
    static func ivf(_ pts: [Int64]) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var b = Array("DKIF".utf8) + le16(0) + le16(32) + Array("VP80".utf8) + le16(64) + le16(48)
            + le32(30) + le32(1) + le32(UInt32(pts.count)) + le32(0)
        for p in pts {
            let u = UInt64(bitPattern: p)
            b += le32(1) + le32(UInt32(u & 0xFFFF_FFFF)) + le32(UInt32(u >> 32)) + [0x10]
        }
        return b
    }

    static let cases: [Case] = [
        Case(name: "y4m width", input: "in.y4m", bytes: Array("YUV4MPEG2 W999999999 H4 F25:1\nFRAME\n".utf8),
             nodes: #""src": { "type": "y4msrc", "params": { "path": "in.y4m" } }, \#(sink)"#,
             message: "error: node 'src' (y4msrc): 'DIR/in.y4m': byte 10: width 'W999999999' in the YUV4MPEG2 header is above the limit of 16384"),
        Case(name: "wav data size", input: "in.wav", bytes: wav(dataSize: 0xFFFF_FFF0, data: [UInt8](repeating: 0, count: 10)),
             nodes: #""src": { "type": "wavsrc", "params": { "path": "in.wav" } }, "out": { "type": "nullsink" }"#,
             message: "error: node 'src' (wavsrc): 'DIR/in.wav': byte 36: data chunk size 4294967280 is beyond the end of the file (10 bytes follow its header); cut short while written? filesrc reads what is there, with \"errors\": \"skip\""),
        Case(name: "raw area", input: "in.raw", bytes: [0, 0, 0],
             nodes: #""src": { "type": "rawsrc", "params": { "path": "in.raw", "width": 16384, "height": 16384 } }, "out": { "type": "nullsink" }"#,
             message: "error: node 'src' (rawsrc): params 'width' and 'height': frame size 16384x16384 has 268435456 pixels, above the limit of 67108864 (2^26)"),
        Case(name: "cube value", input: "x.cube", bytes: Array("LUT_3D_SIZE 2\n1e39 0 0\n".utf8),
             nodes: #""src": { "type": "testsrc", "params": { "width": 16, "height": 16, "frames": 1, "format": "rgba" } }, "f": { "type": "lut3d", "params": { "file": "x.cube" } }, "out": { "type": "nullsink" }"#,
             message: "error: node 'f' (lut3d): param 'file': DIR/x.cube:2: a table row: 1e39 is beyond the limit of ±1000000 for .cube values"),
        Case(name: "h264 reorder depth", input: "in.h264", bytes: reorderSPS,
             nodes: #""src": { "type": "h264src", "params": { "path": "in.h264", "rate": "25/1" } }, "out": { "type": "nullsink" }"#,
             message: "error: node 'src' (h264src): DIR/in.h264: byte 4: sequence parameter set: max_num_reorder_frames 2147483648 is out of range 0…16"),
        Case(name: "ivf pts near Int64.max into mp4", input: "in.ivf", bytes: ivf([Int64.max - 10, Int64.max - 5]),
             nodes: #""src": { "type": "ivfsrc", "params": { "path": "in.ivf" } }, "out": { "type": "mp4", "params": { "path": "out.mp4" } }"#,
             message: "error: node 'out' (mp4): input 'video': packet 0: pts 9223372036854775797 in time base 1/30 does not fit 64 bits in the track timescale 15360"),
        Case(name: "ivf pts difference", input: "in.ivf", bytes: ivf([Int64.min + 1, Int64.max]),
             nodes: #""src": { "type": "ivfsrc", "params": { "path": "in.ivf" } }, "out": { "type": "nullsink" }"#,
             message: "error: node 'src' (ivfsrc): 'DIR/in.ivf': byte 45: frame pts 9223372036854775807 after pts -9223372036854775807 (byte 32): the difference does not fit 64 bits"),
    ]

    @Test(arguments: cases)
    func rejectedByTheCLI(_ c: Case) throws {
        let dir = CLI.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/" + c.input, contents: Data(c.bytes)), "could not write the input")
        let out = c.nodes.contains("\"mp4\"") ? "out.video" : "out"
        let chain = c.nodes.contains("\"f\"") ? "[\"src\", \"f\", \"out\"]" : "[\"src\", \"\(out)\"]"
        let g = CLI.writeGraph("{ \"nodes\": { \(c.nodes) }, \"chains\": [\(chain)] }", in: dir)
        let start = Date()
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(Date().timeIntervalSince(start) < CLI.timeLimit, "\(c.name): took \(Date().timeIntervalSince(start)) s")
        #expect(r.status == 1 || r.status == 2, "\(c.name): exit \(r.status): \(r.stderr)")
        let expected = c.message.replacingOccurrences(of: "DIR", with: dir)
        #expect(r.stderr.contains(expected), "\(c.name): expected «\(expected)» in «\(r.stderr)»")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        #expect(Set(left) == [c.input, "g.json"], "\(c.name): files left: \(left)")
    }
}
