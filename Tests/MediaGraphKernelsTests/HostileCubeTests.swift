import Foundation
import MediaGraphKernels
import Testing

/// Hand-made hostile .cube files: float overflow (1e39 would become Float infinity), NaN, huge
/// sizes, degenerate domains, enormous lines and files. Each is rejected with file:line and the
/// exact message, fast.
@Suite struct HostileCubeTests {
    static func rows(_ n: Int) -> String { String(repeating: "0.5 0.5 0.5\n", count: n) }

    static func message(_ text: String) -> String? {
        let clock = ContinuousClock()
        let start = clock.now
        // scaled by MEDIAGRAPH_TEST_TIME_SCALE for the sanitizer builds (make test-sanitize)
        let scale = Double(ProcessInfo.processInfo.environment["MEDIAGRAPH_TEST_TIME_SCALE"] ?? "") ?? 1
        defer { #expect(clock.now - start < .seconds(5 * scale)) }
        do {
            _ = try CubeLUT(parsing: Array(text.utf8), file: "hostile.cube")
        } catch let e as CubeFileError {
            return e.description
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func valuesBeyondFloatRange() {
        #expect(Self.message("LUT_3D_SIZE 2\n" + Self.rows(3) + "1e39 0 0\n" + Self.rows(4))
            == "hostile.cube:5: a table row: 1e39 is beyond the limit of ±1000000 for .cube values")
        #expect(Self.message("LUT_3D_SIZE 2\n-3.5e38 0 0\n" + Self.rows(7))
            == "hostile.cube:2: a table row: -3.5e38 is beyond the limit of ±1000000 for .cube values")
        #expect(Self.message("LUT_3D_SIZE 2\n1e400 0 0\n" + Self.rows(7))
            == "hostile.cube:2: a table row: '1e400' is not a number")
        #expect(Self.message("LUT_3D_SIZE 2\nnan 0 0\n" + Self.rows(7)) == "hostile.cube:2: a table row: 'nan' is not a number")
        #expect(Self.message("LUT_3D_SIZE 2\n0 -inf 0\n" + Self.rows(7)) == "hostile.cube:2: a table row: '-inf' is not a number")
    }

    @Test func hugeSizeLines() {
        #expect(Self.message("LUT_3D_SIZE 1000000\n") == "hostile.cube:1: LUT_3D_SIZE 1000000 is out of range 2…65")
        #expect(Self.message("LUT_3D_SIZE 99999999999999999999999\n")
            == "hostile.cube:1: LUT_3D_SIZE needs one whole number, found '99999999999999999999999'")
        #expect(Self.message("LUT_3D_SIZE -2147483648\n") == "hostile.cube:1: LUT_3D_SIZE -2147483648 is out of range 2…65")
    }

    @Test func degenerateDomains() {
        #expect(Self.message("DOMAIN_MIN 0.5 0 0\nDOMAIN_MAX 0.5 1 1\nLUT_3D_SIZE 2\n" + Self.rows(8))
            == "hostile.cube:2: DOMAIN_MIN 0.5 must be below DOMAIN_MAX 0.5 for red")
        #expect(Self.message("LUT_3D_INPUT_RANGE 1 1\nLUT_3D_SIZE 2\n" + Self.rows(8))
            == "hostile.cube:1: DOMAIN_MIN 1.0 must be below DOMAIN_MAX 1.0 for red")
        // ±1e300: the width would overflow to infinity.
        #expect(Self.message("DOMAIN_MIN -1e300 0 0\nDOMAIN_MAX 1e300 1 1\nLUT_3D_SIZE 2\n" + Self.rows(8))
            == "hostile.cube:1: DOMAIN_MIN: -1e300 is beyond the limit of ±1000000 for .cube values")
    }

    @Test func lineOfAMillionNumbers() {
        let line = String(repeating: "0.5 ", count: 1_000_000)
        #expect(Self.message("LUT_3D_SIZE 2\n" + line + "\n") == "hostile.cube:2: a table row needs 3 numbers, found 1000000")
        #expect(Self.message("LUT_3D_SIZE " + line + "\n")
            == "hostile.cube:1: LUT_3D_SIZE needs one whole number, found '0.5 0.5 0.5 0.5 …'")
    }

    @Test func fileLargerThanTheLimit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cube-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.cube").path
        // A sparse file one byte over the limit: nothing near its size is kept in memory.
        #expect(FileManager.default.createFile(atPath: path, contents: Data("LUT_3D_SIZE 2\n".utf8)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(CubeLUT.maxFileSize + 1))
        try handle.close()
        #expect(throws: CubeFileError(file: path, line: 0, message: "the file is larger than the limit of 67108864 bytes for a .cube file")) {
            try CubeLUT(contentsOfFile: path)
        }
        #expect(throws: CubeFileError(file: dir.path, line: 0, message: "cannot read the file: it is a directory")) {
            try CubeLUT(contentsOfFile: dir.path)
        }
    }
}
