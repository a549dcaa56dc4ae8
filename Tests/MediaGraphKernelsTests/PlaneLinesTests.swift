import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// Clamped lines on Y'CbCr planes (`PlaneLine`, `PlaneLineFixed16`, `PlaneCurvesKernel` given
/// lines): lines compose to the value of one after the other; the 16-bit form is the line rounded
/// once, off only where the line lies within its stated error of a half; the kernel writes exactly
/// its tables' bytes whether a plane runs as a line or is looked up, in place or not, at every
/// width around the 32-sample steps; a single filter's own tables mostly run as lines.
@Suite struct PlaneLinesTests {
    struct Random {
        var state: UInt64
        mutating func unit() -> Double {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func line() -> PlaneLine {
            let a = 255 * unit(), b = 255 * unit()
            return PlaneLine(gain: -3 + 6 * unit(), intercept: -400 + 900 * unit(), low: min(a, b), high: max(a, b))
        }
    }

    @Test func linesComposeToOneAfterTheOther() {
        var rng = Random(state: 7)
        for _ in 0..<200 {
            let chain = (0..<(2 + Int(rng.unit() * 5))).map { _ in rng.line() }
            let composed = chain.dropFirst().reduce(chain[0]) { $0.then($1) }
            for k in 0...510 {
                let v = Double(k) / 2
                let stepwise = chain.reduce(v) { $1.value($0) }
                #expect(abs(composed.value(v) - stepwise) < 1e-9, "\(chain) at \(v): \(composed.value(v)) vs \(stepwise)")
            }
        }
    }

    /// Against the line's value rounded to nearest: within half an LSB plus the stated arithmetic
    /// error 1.5·2^−shift, and equal wherever the value is further than that from a half.
    @Test func fixedPointIsTheLineRoundedOnce() throws {
        var rng = Random(state: 11)
        let lines = (0..<300).map { _ in rng.line() } + [.identity, .invert,
            PlaneLine(gain: 1.9, intercept: 400, low: 16, high: 235), PlaneLine(gain: 0, intercept: 128, low: 16, high: 240),
            PlaneLine(gain: 0.9, intercept: 12.5, low: 16, high: 235), PlaneLine(gain: 120, intercept: -15000, low: 0, high: 255)]
        for line in lines {
            let fixed = try #require(PlaneLineFixed16(line))
            let slack = 1.5 / Double(1 << fixed.shift) + 1e-9
            for v in 0..<256 {
                let exact = line.value(Double(v))
                let out = Double(fixed.output(UInt8(v)))
                #expect(abs(out - exact) <= 0.5 + slack, "\(line) at \(v): \(out) for \(exact)")
                if abs(exact - exact.rounded(.down) - 0.5) > slack {
                    #expect(out == exact.rounded(), "\(line) at \(v): \(out) for \(exact)")
                }
            }
        }
        #expect(PlaneLineFixed16(PlaneLine(gain: 130, intercept: 0, low: 0, high: 255)) == nil)
        #expect(PlaneLineFixed16(PlaneLine(gain: .nan, intercept: 0, low: 0, high: 255)) == nil)
        #expect(PlaneLineFixed16(PlaneLine(gain: 1, intercept: 0, low: -.infinity, high: 255)) == nil)
    }

    static var paths: [VectorPath] { VectorPath.detected == .avx2 ? [.avx2, .sse2] : [.sse2] }

    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func kernelWritesTheFixedPointBytes(_ format: PixelFormat) throws {
        var rng = Random(state: UInt64(format.rawValue.utf8.count) + 3)
        for path in Self.paths {
            for w in [1, 2, 31, 32, 33, 63, 64, 65, 97, 130, 385] {
                let lines = PlaneLines(y: rng.line(), cb: rng.line(), cr: rng.line())
                let curves = try #require(lines.fixedPointCurves)
                let kernel = PlaneCurvesKernel(curves, lines: lines, vectorPath: path)
                #expect(kernel.exactLines.allSatisfy { ($0 != nil) == (path == .avx2) })
                let tables = [curves.y, curves.cb, curves.cr]
                let worst = try checkKernel(format, w, 5, seed: UInt64(w), threads: 2, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                            reference: planeReference { tables[$0][Int($1)] })
                #expect(worst == 0, "\(path) \(format) width \(w): \(worst.map(String.init) ?? "source or padding written")")
            }
        }
    }

    /// A filter alone keeps its own tables (rounded to nearest even from Double); wherever a
    /// 16-bit line gives a plane's table exactly that plane runs as the line — the same bytes.
    @Test(arguments: [YCbCrMatrix.bt601, .bt709])
    func aFiltersOwnTablesRunAsLinesWhereTheyAreExact(_ matrix: YCbCrMatrix) throws {
        var rng = Random(state: 5)
        var planes = 0, asLines = 0
        for k in 0..<60 {
            let map: ColorTransform
            switch k % 4 {
            case 0: map = try .brightness(-0.5 + rng.unit())
            case 1: map = try .contrast(0.2 + 2.3 * rng.unit())
            case 2: map = try .exposure(ev: -1.5 + 3 * rng.unit())
            default: map = try .saturation(2 * rng.unit(), luma: matrix.lumaWeights)
            }
            let full = k % 3 == 0
            let curves = try #require(PlaneCurves(map, matrix: matrix, fullRange: full))
            let lines = try #require(PlaneLines(map, matrix: matrix, fullRange: full))
            let kernel = PlaneCurvesKernel(curves, lines: lines)
            let tables = [curves.y, curves.cb, curves.cr]
            for p in 0..<3 {
                planes += 1
                guard let line = kernel.exactLines[p] else { continue }
                asLines += 1
                #expect(line.table == tables[p], "\(map) plane \(p)")
            }
            let worst = try checkKernel(.yuv420p, 97, 6, seed: UInt64(k), threads: 1, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                        reference: planeReference { tables[$0][Int($1)] })
            #expect(worst == 0, "\(map)")
        }
        if VectorPath.detected == .avx2 {
            #expect(asLines * 10 >= planes * 9, "only \(asLines) of \(planes) planes run as lines")
        }
    }
}
