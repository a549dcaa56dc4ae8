import MediaGraphCore
import MediaGraphShader

/// An rgba image in memory with padded rows, for running kernels in tests.
final class TestImage {
    let width: Int
    let height: Int
    let stride: Int
    let data: UnsafeMutablePointer<UInt8>

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = (width * 4 + 63) / 64 * 64 + 64  // padded rows, as pools make them
        data = .allocate(capacity: stride * height)
        data.initialize(repeating: 0, count: stride * height)
    }

    deinit { data.deallocate() }

    /// A deterministic pattern with gradients, edges and noise, so every formula sees many values.
    static func pattern(width: Int, height: Int, seed: UInt32 = 1) -> TestImage {
        let image = TestImage(width: width, height: height)
        var state = seed &* 2654435761 | 1
        for y in 0..<height {
            for x in 0..<width {
                state ^= state << 13; state ^= state >> 17; state ^= state << 5
                let p = image.data + y * image.stride + x * 4
                p[0] = UInt8((x * 255) / max(1, width - 1))
                p[1] = UInt8((y * 255) / max(1, height - 1))
                p[2] = ((x / 16 + y / 16) % 2 == 0) ? UInt8(truncatingIfNeeded: state) : UInt8((x ^ y) & 0xFF)
                p[3] = UInt8(truncatingIfNeeded: state >> 8) | 0x80
            }
        }
        return image
    }

    var planes: FramePlanes {
        FramePlanes(format: .rgba, width: width, height: height, data0: data, stride0: stride)
    }

    subscript(x: Int, y: Int, c: Int) -> UInt8 { data[y * stride + x * 4 + c] }

    /// Channel c at (x, y) as 0...1, as a shader sees it.
    func unit(_ x: Int, _ y: Int, _ c: Int) -> Double { Double(self[x, y, c]) / 255 }
}

/// Compiles, binds and runs a shader; returns the output image.
func runShader(_ source: String, on input: TestImage, uniforms: [String: ShaderUniformValue] = [:],
               threads: Int = 0, fileName: String = "test.glsl") throws -> TestImage {
    let program = try ShaderProgram(source: source, fileName: fileName)
    let kernel = ShaderKernel(program: try program.bind(uniforms: uniforms))
    let output = TestImage(width: input.width, height: input.height)
    try kernel.run(source: input.planes, destination: output.planes, threads: threads)
    return output
}

/// Converts a reference value in 0...1 to a byte the way the kernel is specified to.
func referenceByte(_ v: Double) -> Int {
    let c = v.isNaN ? 0 : min(max(v, 0), 1)
    return Int((c * 255).rounded(.toNearestOrAwayFromZero))
}

/// Largest difference between the output and a reference giving 0...1 rgba per pixel, with the
/// first place where it occurs.
func maxDifference(_ output: TestImage, _ reference: (Int, Int) -> SIMD4<Double>) -> (diff: Int, x: Int, y: Int, c: Int) {
    var worst = (diff: 0, x: 0, y: 0, c: 0)
    for y in 0..<output.height {
        for x in 0..<output.width {
            let r = reference(x, y)
            for c in 0..<4 {
                let d = abs(Int(output[x, y, c]) - referenceByte(r[c]))
                if d > worst.diff { worst = (d, x, y, c) }
            }
        }
    }
    return worst
}
