import Testing
import MediaGraphCore
import MediaGraphShader

/// The shipped shaders with more than one input (Graphs/shaders), each against a per-pixel
/// reference of its formula: the one-input ones are in ShippedShaderTests.
@Suite struct ShippedMultiInputShaderTests {
    /// Names of the shipped multi-input shaders this suite checks (ShippedShaderTests counts them).
    static let names = ["directional_wipe", "multiply_blend"]

    @Test func multiplyBlendMatchesGPUImagesFormula() throws {
        let base = TestImage.pattern(width: 385, height: 289, seed: 3)
        let over = TestImage.pattern(width: 385, height: 289, seed: 4)
        let program = try ShaderProgram(source: try ShippedShaderTests.load("multiply_blend"), fileName: "multiply_blend.glsl")
        let kernel = ShaderKernel(program: try program.bind(uniforms: [:]))
        let output = TestImage(width: base.width, height: base.height)
        try kernel.run(sources: [base.planes, over.planes], destination: output.planes)
        let worst = maxDifference(output) { x, y in
            let ba = base.unit(x, y, 3), oa = over.unit(x, y, 3)
            return SIMD4((0..<4).map { c in
                let b = base.unit(x, y, c), o = over.unit(x, y, c)
                return o * b + o * (1 - ba) + b * (1 - oa)
            })
        }
        #expect(worst.diff <= 1, "\(worst)")
    }

    @Test(arguments: [0.0, 0.3, 0.75, 1.0])
    func directionalWipeMatchesItsFormula(progress: Double) throws {
        let from = TestImage.pattern(width: 385, height: 31, seed: 5), to = TestImage.pattern(width: 385, height: 31, seed: 6)
        let smoothness = 0.1
        let program = try ShaderProgram(transition: try ShippedShaderTests.load("directional_wipe"), fileName: "directional_wipe.glsl")
        let kernel = ShaderKernel(program: try program.bind(uniforms: ["progress": .number(progress), "smoothness": .number(smoothness)]))
        let output = TestImage(width: from.width, height: from.height)
        try kernel.run(sources: [from.planes, to.planes], destination: output.planes)
        let worst = maxDifference(output) { x, y in
            // smoothstep(edge - s, edge, 1 - u) at the pixel centre; from where it is 1, to where 0
            let u = (Double(x) + 0.5) / Double(from.width)
            let edge = progress * (1 + smoothness)
            let t = min(max((1 - u - (edge - smoothness)) / smoothness, 0), 1)
            let m = t * t * (3 - 2 * t)
            return SIMD4((0..<4).map { to.unit(x, y, $0) * (1 - m) + from.unit(x, y, $0) * m })
        }
        #expect(worst.diff <= 1, "progress \(progress): \(worst)")
    }
}
