import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

@Suite struct ChannelCurvesKernelTests {
    /// GPUImage's levels macro chain, written out: input range, gamma, output range.
    static func levels(_ x: Double, _ inMin: Double, _ inMax: Double, _ gamma: Double,
                       _ outMin: Double, _ outMax: Double) -> Double {
        let ranged = min(max(x - inMin, 0) / (inMax - inMin), 1)
        let corrected = pow(ranged, 1 / gamma)
        return outMin + (outMax - outMin) * corrected
    }

    static let cases: [(String, @Sendable () throws -> ChannelCurves, @Sendable (SIMD4<Double>) -> SIMD4<Double>)] = [
        ("gamma 0.45", { try .gamma(0.45) }, { SIMD4(pow($0.x, 0.45), pow($0.y, 0.45), pow($0.z, 0.45), $0.w) }),
        ("gamma 2.2", { try .gamma(2.2) }, { SIMD4(pow($0.x, 2.2), pow($0.y, 2.2), pow($0.z, 2.2), $0.w) }),
        ("levels all", { try .levels(.init(inputMin: 0.1, inputMax: 0.85, gamma: 1.4, outputMin: 0.05, outputMax: 0.95)) }, { c in
            SIMD4(levels(c.x, 0.1, 0.85, 1.4, 0.05, 0.95), levels(c.y, 0.1, 0.85, 1.4, 0.05, 0.95),
                  levels(c.z, 0.1, 0.85, 1.4, 0.05, 0.95), c.w)
        }),
        ("levels per channel", {
            try .levels(red: .init(inputMin: 0.2, inputMax: 1, gamma: 0.7),
                        green: .init(outputMin: 1, outputMax: 0),
                        blue: .init(inputMin: 0, inputMax: 0.5, gamma: 2, outputMin: 0.3, outputMax: 0.6))
        }, { c in
            SIMD4(levels(c.x, 0.2, 1, 0.7, 0, 1), levels(c.y, 0, 1, 1, 1, 0), levels(c.z, 0, 0.5, 2, 0.3, 0.6), c.w)
        }),
    ]

    @Test(arguments: cases.indices)
    func curveMatchesFormula(index: Int) throws {
        let (name, make, formula) = Self.cases[index]
        let kernel = ChannelCurvesKernel(try make())
        for format in ChannelCurvesKernel.formats {
            for (w, h) in testSizes where w < 1920 || (index + (format == .rgba ? 0 : 1)) % 2 == 0 {
                let worst = try checkKernel(format, w, h, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                            reference: rgbReference(formula))
                #expect(worst != nil && worst! <= 1, "\(name) \(format) \(w)x\(h)")
            }
        }
    }

    @Test func badParameters() {
        #expect(throws: KernelError.parameterOutOfRange(name: "gamma.gamma", value: 3.5, range: 0...3)) {
            try ChannelCurves.gamma(3.5)
        }
        #expect(throws: KernelError.invalidParameter(name: "levels.all.inputMin", detail: "inputMin 0.8 must be below inputMax 0.2")) {
            try ChannelCurves.levels(.init(inputMin: 0.8, inputMax: 0.2))
        }
        #expect(throws: KernelError.parameterOutOfRange(name: "levels.blue.gamma", value: 0, range: 0.01...10)) {
            try ChannelCurves.levels(red: .init(), green: .init(), blue: .init(gamma: 0))
        }
    }
}
