import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

@Suite struct LUT3DKernelTests {
    /// A smooth but clearly non-linear look, different per channel.
    static func look(_ c: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(pow(c.x, 1.7) * 0.9 + 0.1 * c.z, 0.5 + 0.5 * sin(3 * c.y + c.x), min(1, c.z * c.z + 0.2 * c.y))
    }

    /// The grid value at integer point p (Double of the table's Float).
    static func at(_ lut: CubeLUT, _ p: SIMD3<Int>) -> SIMD3<Double> {
        let v = lut.table[p.x + p.y * lut.size + p.z * lut.size * lut.size]
        return SIMD3(Double(v.x), Double(v.y), Double(v.z))
    }

    /// Scaled grid coordinate of an 8-bit input per the domain.
    static func coordinate(_ c: SIMD4<Double>, _ lut: CubeLUT) -> SIMD3<Double> {
        var s = SIMD3<Double>()
        for i in 0..<3 {
            s[i] = min(max((c[i] - lut.domainMin[i]) / (lut.domainMax[i] - lut.domainMin[i]), 0), 1) * Double(lut.size - 1)
        }
        return s
    }

    /// Trilinear: the 8 corners weighted by products of (1 - f) and f.
    static func trilinear(_ lut: CubeLUT) -> (SIMD4<Double>) -> SIMD4<Double> {
        { c in
            let s = coordinate(c, lut)
            let lo = SIMD3<Int>(Int(s.x), Int(s.y), Int(s.z))
            let f = s - SIMD3(Double(lo.x), Double(lo.y), Double(lo.z))
            var out = SIMD3<Double>()
            for corner in 0..<8 {
                let bit = SIMD3(corner & 1, (corner >> 1) & 1, (corner >> 2) & 1)
                var w = 1.0
                var p = lo
                for i in 0..<3 {
                    w *= bit[i] == 1 ? f[i] : 1 - f[i]
                    p[i] = min(lo[i] + bit[i], lut.size - 1)
                }
                out += w * at(lut, p)
            }
            return SIMD4(out.x, out.y, out.z, c.w)
        }
    }

    /// Tetrahedral: walk from the low corner along the axes in order of decreasing fraction.
    static func tetrahedral(_ lut: CubeLUT) -> (SIMD4<Double>) -> SIMD4<Double> {
        { c in
            let s = coordinate(c, lut)
            let lo = SIMD3<Int>(Int(s.x), Int(s.y), Int(s.z))
            let f = s - SIMD3(Double(lo.x), Double(lo.y), Double(lo.z))
            let axes = [0, 1, 2].sorted { f[$0] > f[$1] }
            var p = lo
            var out = (1 - f[axes[0]]) * at(lut, p)
            for k in 0..<3 {
                p[axes[k]] = min(p[axes[k]] + 1, lut.size - 1)
                let next = k < 2 ? f[axes[k + 1]] : 0
                out += (f[axes[k]] - next) * at(lut, p)
            }
            return SIMD4(out.x, out.y, out.z, c.w)
        }
    }

    @Test(arguments: LUT3DKernel.Interpolation.allCases)
    func matchesReferenceFormula(interpolation: LUT3DKernel.Interpolation) throws {
        for size in [2, 17, 33] {
            let lut = try CubeLUT(size: size, Self.look)
            let reference = interpolation == .tetrahedral ? Self.tetrahedral(lut) : Self.trilinear(lut)
            // The CPU's best row loop and the baseline one under it.
            for path in ColorMatrixKernelTests.paths {
                let kernel = LUT3DKernel(lut, interpolation: interpolation, vectorPath: path)
                for format in LUT3DKernel.formats {
                    for (w, h) in testSizes where w < 1920 || (size == 33 && format == (interpolation == .tetrahedral ? .rgba : .bgra)) {
                        let worst = try checkKernel(format, w, h, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                                    reference: rgbReference(reference))
                        #expect(worst != nil && worst! <= 1, "size \(size) \(path) \(format) \(w)x\(h)")
                    }
                }
            }
        }
    }

    @Test func domainScalesTheInput() throws {
        var text = "TITLE \"domain\"\nDOMAIN_MIN 0.1 0 0.2\nDOMAIN_MAX 0.9 1 0.6\nLUT_3D_SIZE 5\n"
        for b in 0..<5 { for g in 0..<5 { for r in 0..<5 {
            let v = Self.look(SIMD3(Double(r), Double(g), Double(b)) / 4)
            text += "\(v.x) \(v.y) \(v.z)\n"
        } } }
        let lut = try CubeLUT(parsing: text, file: "domain.cube")
        for interpolation in LUT3DKernel.Interpolation.allCases {
            let kernel = LUT3DKernel(lut, interpolation: interpolation)
            let worst = try checkKernel(.rgba, 385, 289, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                        reference: rgbReference(interpolation == .tetrahedral ? Self.tetrahedral(lut) : Self.trilinear(lut)))
            #expect(worst != nil && worst! <= 1, "\(interpolation)")
        }
    }

    /// Same .cube file, same input, ffmpeg's lut3d: at most 1 apart (ffmpeg truncates, we round).
    @Test(.enabled(if: ffmpegPath != nil), arguments: LUT3DKernel.Interpolation.allCases)
    func withinOneOfFFmpeg(interpolation: LUT3DKernel.Interpolation) throws {
        let dir = try makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        for size in [2, 33] {
            var text = "# test look\nLUT_3D_SIZE \(size)\n"
            for b in 0..<size { for g in 0..<size { for r in 0..<size {
                let v = Self.look(SIMD3(Double(r), Double(g), Double(b)) / Double(size - 1))
                text += String(format: "%.6f %.6f %.6f\n", v.x, v.y, v.z)
            } } }
            let cube = dir.appendingPathComponent("look\(size).cube")
            try text.write(to: cube, atomically: true, encoding: .utf8)
            let kernel = LUT3DKernel(try CubeLUT(contentsOfFile: cube.path), interpolation: interpolation)
            for format in LUT3DKernel.formats {
                let (w, h) = (385, 289)
                let frame = TestFrame(format, w, h, seed: 99)
                try frame.packed.write(to: dir.appendingPathComponent("in.raw"))
                let (status, err) = try runFFmpeg(
                    ["-f", "rawvideo", "-pix_fmt", format.ffmpegName, "-s", "\(w)x\(h)", "-i", "in.raw",
                     "-vf", "lut3d=file=look\(size).cube:interp=\(interpolation.rawValue)",
                     "-f", "rawvideo", "-pix_fmt", format.ffmpegName, "out.raw"], in: dir)
                #expect(status == 0, "ffmpeg: \(err)")
                let theirs = [UInt8](try Data(contentsOf: dir.appendingPathComponent("out.raw")))
                try kernel.run(source: frame.planesValue, destination: frame.planesValue)
                let ours = [UInt8](frame.packed)
                #expect(theirs.count == ours.count)
                let worst = zip(theirs, ours).map { abs(Int($0) - Int($1)) }.max() ?? 99
                #expect(worst <= 1, "size \(size) \(format) \(interpolation): off by \(worst)")
            }
        }
    }
}
