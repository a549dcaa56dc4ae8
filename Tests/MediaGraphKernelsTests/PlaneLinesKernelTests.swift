import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// Clamped lines on Y'CbCr planes (`PlaneLine`, `PlaneLineFixed16`, `PlaneLinesKernel`): lines
/// compose to the value of one after the other; the 16-bit form is the line rounded once, off
/// only where the line lies within its stated error of a half; the kernel writes exactly the
/// 16-bit form's bytes on every path, in place or not, at every width around its 32-sample steps.
@Suite struct PlaneLinesKernelTests {
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
    }

    static var paths: [VectorPath] { VectorPath.detected == .avx2 ? [.avx2, .sse2] : [.sse2] }

    @Test(arguments: [PixelFormat.yuv420p, .yuv422p, .yuv444p])
    func kernelWritesTheFixedPointBytes(_ format: PixelFormat) throws {
        var rng = Random(state: UInt64(format.rawValue.utf8.count) + 3)
        for path in Self.paths {
            for w in [1, 2, 31, 32, 33, 63, 64, 65, 97, 130, 385] {
                let lines = PlaneLines(y: rng.line(), cb: rng.line(), cr: rng.line())
                let kernel = try #require(PlaneLinesKernel(lines, vectorPath: path))
                let worst = try checkKernel(format, w, 5, seed: UInt64(w), threads: 2, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                            reference: planeReference { kernel.fixed[$0].output($1) })
                #expect(worst == 0, "\(path) \(format) width \(w): \(worst.map(String.init) ?? "source or padding written")")
            }
        }
    }
}
