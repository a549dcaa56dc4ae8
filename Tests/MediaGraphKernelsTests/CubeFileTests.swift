import Foundation
import MediaGraphKernels
import Testing

@Suite struct CubeFileTests {
    @Test func readsHeaderCommentsAndTableOrder() throws {
        let text = """
        # made by hand
        TITLE "Two by two"
        DOMAIN_MIN 0 0 0
        DOMAIN_MAX 1 1 1

        LUT_3D_SIZE 2
        0 0 0   # r=0 g=0 b=0
        1 0 0
        0 1 0
        1 1 0\r
        0 0 1
        1 0 1
        0 1 1
        1 1 1e0
        """
        let lut = try CubeLUT(parsing: text, file: "two.cube")
        #expect(lut.title == "Two by two")
        #expect(lut.size == 2)
        #expect(lut.domainMin == SIMD3(0, 0, 0) && lut.domainMax == SIMD3(1, 1, 1))
        // Red changes fastest: entry r + 2g + 4b is the grid colour itself here.
        for b in 0..<2 { for g in 0..<2 { for r in 0..<2 {
            #expect(lut.table[r + 2 * g + 4 * b] == SIMD3(Float(r), Float(g), Float(b)))
        } } }
    }

    static func rows(_ n: Int) -> String { String(repeating: "0.5 0.5 0.5\n", count: n) }

    /// Each bad file and the exact message it must give.
    static let badFiles: [(String, String)] = [
        ("LUT_3D_SIZE 70\n" + rows(8), "bad.cube:1: LUT_3D_SIZE 70 is out of range 2…65"),
        ("LUT_3D_SIZE 1\n0 0 0\n", "bad.cube:1: LUT_3D_SIZE 1 is out of range 2…65"),
        ("# c\nLUT_3D_SIZE two\n", "bad.cube:2: LUT_3D_SIZE needs one whole number, found 'two'"),
        ("LUT_3D_SIZE 2 2\n", "bad.cube:1: LUT_3D_SIZE needs one whole number, found '2 2'"),
        ("LUT_3D_SIZE\n", "bad.cube:1: LUT_3D_SIZE needs one whole number, found ''"),
        ("LUT_3D_SIZE 2\n" + rows(5), "bad.cube:6: the table ends after 5 rows; LUT_3D_SIZE 2 needs 8"),
        ("LUT_3D_SIZE 2\n" + rows(9), "bad.cube:10: more than 8 table rows (LUT_3D_SIZE 2)"),
        ("LUT_3D_SIZE 2\n" + rows(3) + "0.5 abc 0.5\n" + rows(4), "bad.cube:5: a table row: 'abc' is not a number"),
        ("LUT_3D_SIZE 2\n" + rows(3) + "0.5 0.5\n" + rows(4), "bad.cube:5: a table row needs 3 numbers, found 2"),
        ("LUT_3D_SIZE 2\n" + rows(1) + "0.5 nan 0.5\n" + rows(6), "bad.cube:3: a table row: 'nan' is not a number"),
        (rows(8), "bad.cube:1: table row before the LUT_3D_SIZE line"),
        ("TITLE \"x\"\n", "bad.cube:1: no LUT_3D_SIZE line; expected LUT_3D_SIZE n (n in 2…65) before the table"),
        ("", "bad.cube:1: no LUT_3D_SIZE line; expected LUT_3D_SIZE n (n in 2…65) before the table"),
        ("LUT_1D_SIZE 1024\n", "bad.cube:1: 1D LUTs (LUT_1D_SIZE) are not supported; expected LUT_3D_SIZE"),
        ("LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", "bad.cube:2: LUT_3D_SIZE appears again (first on line 1)"),
        ("LUT_3D_SIZ 2\n", "bad.cube:1: unknown keyword 'LUT_3D_SIZ'; expected TITLE, LUT_3D_SIZE, DOMAIN_MIN, DOMAIN_MAX or LUT_3D_INPUT_RANGE"),
        ("DOMAIN_MIN 0 0\nLUT_3D_SIZE 2\n" + rows(8), "bad.cube:1: DOMAIN_MIN needs 3 numbers, found 2"),
        ("DOMAIN_MIN 0 0.5 0\nDOMAIN_MAX 1 0.5 1\nLUT_3D_SIZE 2\n" + rows(8),
         "bad.cube:2: DOMAIN_MIN 0.5 must be below DOMAIN_MAX 0.5 for green"),
    ]

    @Test(arguments: badFiles.indices)
    func badFileGivesExactMessage(index: Int) {
        let (text, message) = Self.badFiles[index]
        do {
            _ = try CubeLUT(parsing: text, file: "bad.cube")
            Issue.record("accepted: \(message)")
        } catch let error as CubeFileError {
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func fileErrorsNameThePath() throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("short.cube").path
        try "LUT_3D_SIZE 3\n0 0 0\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: CubeFileError(file: path, line: 2, message: "the table ends after 1 rows; LUT_3D_SIZE 3 needs 27")) {
            try CubeLUT(contentsOfFile: path)
        }
        #expect(throws: CubeFileError(file: dir.path + "/missing.cube", line: 0, message: "cannot read the file: No such file or directory")) {
            try CubeLUT(contentsOfFile: dir.path + "/missing.cube")
        }
    }

    @Test func generatedTableSizeIsChecked() {
        #expect(throws: KernelError.parameterOutOfRange(name: "lut3d.size", value: 66, range: 2...65)) {
            try CubeLUT(size: 66) { $0 }
        }
        #expect(throws: KernelError.parameterOutOfRange(name: "lut3d.size", value: 1, range: 2...65)) {
            try CubeLUT(size: 1) { $0 }
        }
    }

    @Test func sizes2And65Parse() throws {
        for n in [2, 65] {
            var text = "LUT_3D_SIZE \(n)\n"
            text.reserveCapacity(n * n * n * 24)
            for b in 0..<n { for g in 0..<n { for r in 0..<n {
                text += "\(Double(r) / Double(n - 1)) \(Double(g) / Double(n - 1)) \(Double(b) / Double(n - 1))\n"
            } } }
            let lut = try CubeLUT(parsing: text, file: "big.cube")
            #expect(lut.table.count == n * n * n)
            #expect(lut.table.last == SIMD3(1, 1, 1))
        }
    }
}
