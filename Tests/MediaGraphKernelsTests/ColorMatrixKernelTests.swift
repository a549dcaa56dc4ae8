import Foundation
import MediaGraphCore
import MediaGraphKernels
import Testing

/// Each colour filter against its documented formula, written out here per pixel in Double.
@Suite struct ColorMatrixKernelTests {
    static func luma709(_ c: SIMD4<Double>) -> Double { 0.2125 * c.x + 0.7154 * c.y + 0.0721 * c.z }
    static func mix(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
    static func withRGB(_ c: SIMD4<Double>, _ f: (Double) -> Double) -> SIMD4<Double> {
        SIMD4(f(c.x), f(c.y), f(c.z), c.w)
    }

    /// GPUImage's hue shader, step by step (YIQ, polar form, rotation by -h, back to RGB).
    static func gpuImageHue(_ c: SIMD4<Double>, degrees: Double) -> SIMD4<Double> {
        let y = 0.299 * c.x + 0.587 * c.y + 0.114 * c.z
        var i = 0.595716 * c.x - 0.274453 * c.y - 0.321263 * c.z
        var q = 0.211456 * c.x - 0.522591 * c.y + 0.31135 * c.z
        var hue = atan2(q, i)
        let chroma = (i * i + q * q).squareRoot()
        hue += -(degrees.truncatingRemainder(dividingBy: 360) * .pi / 180)
        q = chroma * sin(hue)
        i = chroma * cos(hue)
        return SIMD4(y + 0.9563 * i + 0.6210 * q, y - 0.2721 * i - 0.6474 * q, y - 1.1070 * i + 1.7046 * q, c.w)
    }

    static let sepiaRows: [[Double]] = [[0.3588, 0.7044, 0.1368], [0.2990, 0.5870, 0.1140], [0.2392, 0.4696, 0.0912]]

    static let cases: [(String, @Sendable () throws -> ColorTransform, @Sendable (SIMD4<Double>) -> SIMD4<Double>)] = [
        ("grayscale", { try .grayscale() }, { c in let l = luma709(c); return SIMD4(l, l, l, c.w) }),
        ("sepia 1", { try .sepia() }, { c in
            SIMD4(sepiaRows[0][0] * c.x + sepiaRows[0][1] * c.y + sepiaRows[0][2] * c.z,
                  sepiaRows[1][0] * c.x + sepiaRows[1][1] * c.y + sepiaRows[1][2] * c.z,
                  sepiaRows[2][0] * c.x + sepiaRows[2][1] * c.y + sepiaRows[2][2] * c.z, c.w)
        }),
        ("sepia 0.4", { try .sepia(intensity: 0.4) }, { c in
            var out = c
            for i in 0..<3 {
                let s = sepiaRows[i][0] * c.x + sepiaRows[i][1] * c.y + sepiaRows[i][2] * c.z
                out[i] = mix(c[i], s, 0.4)
            }
            return out
        }),
        ("brightness -0.3", { try .brightness(-0.3) }, { withRGB($0) { $0 - 0.3 } }),
        ("brightness 0.25", { try .brightness(0.25) }, { withRGB($0) { $0 + 0.25 } }),
        ("contrast 1.7", { try .contrast(1.7) }, { withRGB($0) { ($0 - 0.5) * 1.7 + 0.5 } }),
        ("contrast 0.3", { try .contrast(0.3) }, { withRGB($0) { ($0 - 0.5) * 0.3 + 0.5 } }),
        ("saturation 0", { try .saturation(0) }, { c in let l = luma709(c); return withRGB(c) { mix(l, $0, 0) } }),
        ("saturation 1.6", { try .saturation(1.6) }, { c in let l = luma709(c); return withRGB(c) { mix(l, $0, 1.6) } }),
        ("exposure 0.7", { try .exposure(ev: 0.7) }, { withRGB($0) { $0 * pow(2, 0.7) } }),
        ("exposure -2.5", { try .exposure(ev: -2.5) }, { withRGB($0) { $0 * pow(2, -2.5) } }),
        ("rgb gains", { try .rgbGains(r: 1.3, g: 0.5, b: 2.2) }, { SIMD4($0.x * 1.3, $0.y * 0.5, $0.z * 2.2, $0.w) }),
        ("hue 30", { try .hue(degrees: 30) }, { gpuImageHue($0, degrees: 30) }),
        ("hue -135", { try .hue(degrees: -135) }, { gpuImageHue($0, degrees: -135) }),
        ("hue 400", { try .hue(degrees: 400) }, { gpuImageHue($0, degrees: 400) }),
        ("matrix with alpha", {
            try .matrix([0.5, 0.2, 0.1, 0.3, -0.4, 1.1, 0.2, 0, 0.3, 0.3, 0.3, 0.1, 0.25, 0, 0, 0.5],
                        offset: [0.1, -0.2, 0.05, 0.2], intensity: 0.8)
        }, { c in
            let m: [[Double]] = [[0.5, 0.2, 0.1, 0.3], [-0.4, 1.1, 0.2, 0], [0.3, 0.3, 0.3, 0.1], [0.25, 0, 0, 0.5]]
            let o = [0.1, -0.2, 0.05, 0.2]
            var out = c
            for i in 0..<4 {
                let v = m[i][0] * c.x + m[i][1] * c.y + m[i][2] * c.z + m[i][3] * c.w + o[i]
                out[i] = mix(c[i], v, 0.8)
            }
            return out
        }),
        ("alpha as input, alpha kept", {
            try .matrix([0.9, 0, 0, 0.2, 0, 1, 0, -0.3, 0.1, 0.1, 0.7, 0.1, 0, 0, 0, 1], offset: [0, 0.05, 0, 0])
        }, { c in
            SIMD4(0.9 * c.x + 0.2 * c.w, c.y - 0.3 * c.w + 0.05, 0.1 * c.x + 0.1 * c.y + 0.7 * c.z + 0.1 * c.w, c.w)
        }),
        ("contrast then saturation", { try ColorTransform.contrast(1.4).then(.saturation(0.5)) }, { c in
            let k = withRGB(c) { ($0 - 0.5) * 1.4 + 0.5 }
            let l = luma709(k)
            return withRGB(k) { mix(l, $0, 0.5) }
        }),
    ]

    /// Every row loop this machine can run: the CPU's best and the SSE2 one under it.
    static var paths: [VectorPath] {
        Array(Set([VectorPath.detected, VectorPath.detected == .portable ? .portable : .sse2]))
    }

    @Test(arguments: cases.indices)
    func filterMatchesFormula(index: Int) throws {
        let (name, make, formula) = Self.cases[index]
        for path in Self.paths {
            let kernel = ColorMatrixKernel(try make(), vectorPath: path)
            for format in ColorMatrixKernel.formats {
                for (w, h) in testSizes + [(97, 5)] where w < 1920 || [0, 1, 4, 12].contains(index) {
                    let worst = try checkKernel(format, w, h, run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                                reference: rgbReference(formula))
                    #expect(worst != nil && worst! <= 1, "\(name) \(path) \(format) \(w)x\(h): off by \(worst.map(String.init) ?? "bad memory")")
                }
            }
        }
    }

    /// The 1080p frame of every filter, one thread and several (bands must meet exactly).
    @Test func wholeHDFrameEveryFilter() throws {
        for (i, (name, make, formula)) in Self.cases.enumerated() where ![0, 1, 4, 12].contains(i) {
            let kernel = ColorMatrixKernel(try make())
            let format: PixelFormat = i % 2 == 0 ? .rgba : .bgra
            let worst = try checkKernel(format, 1920, 1080, threads: i % 3 == 0 ? 1 : 3,
                                        run: { try kernel.run(source: $0, destination: $1, threads: $2) },
                                        reference: rgbReference(formula))
            #expect(worst != nil && worst! <= 1, "\(name) \(format) 1920x1080")
        }
    }

    @Test func presetsAreKnownAndMixByIntensity() throws {
        #expect(ColorTransform.presetNames.count >= 6)
        for name in ColorTransform.presetNames {
            let full = try ColorTransform.preset(named: name, intensity: 1)
            let none = try ColorTransform.preset(named: name, intensity: 0)
            #expect(none.effectiveRows == ColorTransform.identity.rows, "\(name) at 0 is the identity")
            #expect(none.effectiveOffset == .zero)
            #expect(full.intensity == 1)
        }
        #expect(try ColorTransform.preset(named: "sepia", intensity: 0.3) == ColorTransform.sepia(intensity: 0.3))
        // invert preset: 1 - rgb.
        let invert = ColorMatrixKernel(try .preset(named: "invert"))
        let worst = try checkKernel(.rgba, 385, 289, run: { try invert.run(source: $0, destination: $1, threads: $2) },
                                    reference: rgbReference { c in SIMD4(1 - c.x, 1 - c.y, 1 - c.z, c.w) })
        #expect(worst == 0)
    }

    @Test func badParametersNameTheParameter() {
        #expect(throws: KernelError.parameterOutOfRange(name: "brightness.amount", value: 1.5, range: -1...1)) {
            try ColorTransform.brightness(1.5)
        }
        #expect(throws: KernelError.parameterOutOfRange(name: "sepia.intensity", value: -0.1, range: 0...1)) {
            try ColorTransform.sepia(intensity: -0.1)
        }
        #expect(throws: KernelError.parameterOutOfRange(name: "contrast.amount", value: .infinity, range: 0...4)) {
            try ColorTransform.contrast(.infinity)
        }
        #expect(throws: KernelError.invalidParameter(name: "matrix", detail: "expected 16 numbers (4 rows of r, g, b, a), found 9")) {
            try ColorTransform.matrix([1, 0, 0, 0, 1, 0, 0, 0, 1])
        }
        #expect(throws: KernelError.invalidParameter(
            name: "preset", detail: "unknown preset 'sepai'; expected one of " + ColorTransform.presetNames.joined(separator: ", "))) {
            try ColorTransform.preset(named: "sepai")
        }
        #expect(KernelError.parameterOutOfRange(name: "brightness.amount", value: 1.5, range: -1...1).description
            == "brightness.amount: 1.5 is outside -1.0…1.0")
    }

    @Test func rejectsYUV() throws {
        let f = TestFrame(.yuv420p, 4, 4)
        #expect(throws: KernelError.unsupportedFormat(kernel: "colormatrix", found: .yuv420p, accepted: [.rgba, .bgra])) {
            try ColorMatrixKernel(.identity).run(source: f.planesValue, destination: f.planesValue)
        }
    }
}
