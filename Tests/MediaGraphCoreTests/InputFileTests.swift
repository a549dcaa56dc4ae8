import Foundation
import MediaGraphCore
import Testing

/// The one way node inputs are read (`InputFile`): what comes out equals the file's bytes
/// whatever the read sizes (the buffer is small here, so reads cross refills and bypass it), and
/// errors name the file and byte.
@Suite struct InputFileTests {
    /// 10 000 bytes of a fixed pseudo-random sequence (an LCG), with a '\n' every 97th byte.
    static let bytes: [UInt8] = {
        var x: UInt32 = 12345
        return (0..<10_000).map { i in
            x = x &* 1_103_515_245 &+ 12_345
            return i % 97 == 96 ? 0x0a : UInt8(truncatingIfNeeded: x >> 16) | 0x80
        }
    }()

    static func file(_ bytes: [UInt8]) -> String {
        let path = NSTemporaryDirectory() + "mg-input-" + UUID().uuidString
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test(arguments: [1, 7, 100, 150, 5000])
    func streamReadsGiveTheFileBytes(piece: Int) throws {
        let path = Self.file(Self.bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let f = try InputFile(path: path, capacity: 256)
        #expect(f.size == Int64(Self.bytes.count))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: piece)
        while true {
            let n = try chunk.withUnsafeMutableBufferPointer { try f.read(into: $0.baseAddress!, count: piece) }
            out += chunk[0..<n]
            #expect(f.offset == Int64(out.count))
            if n < piece { break }
        }
        #expect(out == Self.bytes)
        #expect(try f.isAtEnd())
    }

    @Test func linesSkipsAndTheWindowAgree() throws {
        let f = InputFile(bytes: Self.bytes, name: "mem", capacity: 64)
        let first = try f.readLine(limit: 200)
        #expect(first == Array(Self.bytes[0..<96]))
        #expect(try f.skip(3) == 3)
        #expect(f.offset == 100)
        var rest = [UInt8](repeating: 0, count: 20)
        #expect(try rest.withUnsafeMutableBufferPointer { try f.read(into: $0.baseAddress!, count: 20) } == 20)
        #expect(rest == Array(Self.bytes[100..<120]))

        // the window: 300 bytes from buffer index 0 (the buffer grows past its 64 bytes)
        let w = InputFile(bytes: Self.bytes, name: "mem", capacity: 64)
        let at = try w.ensure(300, from: 0)
        #expect(at == 0)
        #expect(Array(UnsafeBufferPointer(start: w.buffer, count: 300)) == Array(Self.bytes[0..<300]))
        try w.refill(keepFrom: 250)
        #expect(w.bufferOffset == 250 && w.buffer[0] == Self.bytes[250])
    }

    @Test func errorsNameTheFileAndByte() throws {
        let f = InputFile(bytes: Self.bytes, name: "x.y4m", capacity: 64)
        #expect(throws: InputFileError(.lineTooLong(limit: 50), path: "x.y4m", offset: 0)) { try f.readLine(limit: 50) }
        let missing = NSTemporaryDirectory() + "mg-missing-" + UUID().uuidString
        do {
            _ = try InputFile(path: missing)
            Issue.record("opened a missing file")
        } catch {
            #expect("\(error)" == "cannot open '\(missing)': No such file or directory")
        }
        do {
            _ = try InputFile(path: NSTemporaryDirectory())
            Issue.record("opened a directory")
        } catch {
            #expect("\(error)" == "cannot open '\(NSTemporaryDirectory())': it is a directory")
        }
        #expect("\(InputFileError(.lineTooLong(limit: 4096), path: "-", offset: 9))"
                == "standard input: line at byte 9 is longer than 4096 bytes (not the expected format?)")
    }
}
