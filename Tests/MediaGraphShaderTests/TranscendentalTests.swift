import Foundation
import Testing
import MediaGraphShader
import MediaGraphKernels

/// atan, atan2, pow, exp, log, exp2 and log2 run as vector code where a chunk's lanes are in
/// their domain and through libm otherwise, and pow of some constant exponents as multiplies or
/// square roots; all must agree with Double maths. Each shader writes
/// its value in two bytes (the 1/255 step and the fraction within it), so the check is to about
/// 1/65025 rather than one byte's 1/255.
struct TranscendentalTests {
    struct Case: Sendable {
        let expression: String  // GLSL, of u and v (the texel centre, 0...1); the value must lie in 0...1
        let reference: @Sendable (Double, Double) -> Double?  // nil where the value is not checked
    }

    static let cases: [Case] = [
        Case(expression: "(atan(v - 0.5, u - 0.5) / 3.14159265 + 1.0) * 0.5") { u, v in (atan2(v - 0.5, u - 0.5) / .pi + 1) / 2 },
        Case(expression: "atan((u - 0.5) * 20.0) / 3.14159265 + 0.5") { u, _ in atan((u - 0.5) * 20) / .pi + 0.5 },
        Case(expression: "pow(u, 2.2)") { u, _ in pow(u, 2.2) },
        Case(expression: "pow(u, 0.25)") { u, _ in pow(u, 0.25) },
        // Constant exponents that multiplies and square roots give (rewritten when compiled).
        Case(expression: "pow(u, 15.0)") { u, _ in pow(u, 15) },
        Case(expression: "pow(u, 0.5)") { u, _ in u.squareRoot() },
        Case(expression: "(pow(u * 2.0 - 1.0, 3.0) + 1.0) * 0.5") { u, _ in (pow(u * 2 - 1, 3) + 1) / 2 },
        Case(expression: "pow(1.0 + v, 3.0 * u) / 8.0") { u, v in pow(1 + v, 3 * u) / 8 },
        Case(expression: "exp(-u * 10.0)") { u, _ in exp(-u * 10) },
        Case(expression: "log(1.0 + u * 100.0) / log(101.0)") { u, _ in log(1 + u * 100) / log(101) },
        Case(expression: "exp2(v * 8.0 - 8.0)") { _, v in exp2(v * 8 - 8) },
        Case(expression: "log2(u * 255.0 + 1.0) / 8.0") { u, _ in log2(u * 255 + 1) / 8 },
        // Chunks where some lanes are out of the domain (log of a negative) go to libm whole.
        Case(expression: "max(log2(u - 0.3) + 4.0, 0.0) / 4.0") { u, _ in u > 0.31 ? max(log2(u - 0.3) + 4, 0) / 4 : nil },
    ]

    static func shader(_ expression: String) -> String {
        """
        varying highp vec2 textureCoordinate;
        uniform sampler2D inputImageTexture;
        void main() {
            highp float u = textureCoordinate.x;
            highp float v = textureCoordinate.y;
            highp float value = clamp(\(expression), 0.0, 1.0) * 255.0;
            highp float whole = floor(value);
            gl_FragColor = vec4(whole / 255.0, value - whole, 0.0, 1.0);
        }
        """
    }

    @Test(arguments: cases.indices) func agreesWithDoubleMaths(_ index: Int) throws {
        let c = TranscendentalTests.cases[index]
        let input = TestImage(width: 385, height: 289)
        let program = try ShaderProgram(source: TranscendentalTests.shader(c.expression)).bind(uniforms: [:])
        var outputs: [[UInt8]] = []
        for path in [VectorPath.detected, .sse2] {
            let output = TestImage(width: input.width, height: input.height)
            try ShaderKernel(program: program, vectorPath: path).run(source: input.planes, destination: output.planes, threads: 2)
            outputs.append((0..<output.height).flatMap { y in (0..<output.width * 4).map { output[$0 / 4, y, $0 % 4] } })
            var worst = 0.0, at = (0, 0)
            for y in 0..<input.height {
                for x in 0..<input.width {
                    let u = (Double(x) + 0.5) / Double(input.width), v = (Double(y) + 0.5) / Double(input.height)
                    guard let expected = c.reference(u, v) else { continue }
                    let got = (Double(output[x, y, 0]) + Double(output[x, y, 1]) / 255) / 255
                    let error = abs(got - min(max(expected, 0), 1))
                    if error > worst { worst = error; at = (x, y) }
                }
            }
            // Two bytes hold the value to 1/65025; allow one step of the low byte and its rounding.
            #expect(worst <= 1.5 / 65025, "\(c.expression) on \(path): off by \(worst * 65025) / 65025 at \(at)")
        }
        #expect(outputs[0] == outputs[1], "\(c.expression): \(VectorPath.detected) and sse2 builds differ")
    }
}
