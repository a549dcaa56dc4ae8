import Foundation
import Testing

/// The shader node with several inputs (inputImageTexture2 … from in1 …): GPUImage's two-input
/// shaders against per-pixel formulas, and blend modes against ffmpeg's `blend`.
@Suite struct MultiInputShaderTests {
    static let width = 48, height = 32, frames = 3

    /// Raw rgba frames of a pseudo-random pattern (every channel, alpha included, varies).
    static func pattern(seed: UInt32) -> [UInt8] {
        var x = seed &* 2_654_435_761 | 1
        return (0..<(width * height * 4 * frames)).map { _ in
            x ^= x << 13; x ^= x >> 17; x ^= x << 5
            return UInt8(truncatingIfNeeded: x >> 7)
        }
    }

    /// Runs `shader` (a file) on inputs `a` and `b` (and `c`) through the node; the output bytes.
    static func runShader(_ shader: String, uniforms: String = "{}", inputs: [[UInt8]], dir: String) throws -> [UInt8] {
        try shader.write(toFile: dir + "/s.glsl", atomically: true, encoding: .utf8)
        var nodes: [String] = [], chains: [String] = []
        for (k, bytes) in inputs.enumerated() {
            #expect(FileManager.default.createFile(atPath: "\(dir)/i\(k).raw", contents: Data(bytes)))
            nodes.append("\"s\(k)\": { \"type\": \"rawsrc\", \"params\": { \"path\": \"\(dir)/i\(k).raw\", \"width\": \(width), \"height\": \(height), \"format\": \"rgba\" } }")
            chains.append("[\"s\(k)\", \"f.in\(k == 0 ? "" : String(k))\"]")
        }
        let graph = CLI.writeGraph("""
        { "nodes": { \(nodes.joined(separator: ", ")), "f": { "type": "shader", "params": { "file": "\(dir)/s.glsl", "uniforms": \(uniforms) } },
                     "out": { "type": "rawsink", "params": { "path": "\(dir)/out.raw" } } },
          "chains": [\(chains.joined(separator: ", ")), ["f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", graph)
        #expect(r.status == 0, "\(r.stderr)")
        return [UInt8](FileManager.default.contents(atPath: "\(dir)/out.raw") ?? Data())
    }

    /// Largest difference between `out` and `formula` (per pixel, on values 0…1, rounded to bytes).
    static func worst(_ out: [UInt8], _ inputs: [[UInt8]], _ formula: ([SIMD4<Double>]) -> SIMD4<Double>) -> Int {
        guard out.count == inputs[0].count else { return 999 }
        var worst = 0
        for p in stride(from: 0, to: out.count, by: 4) {
            let px = inputs.map { i in SIMD4<Double>((0..<4).map { Double(i[p + $0]) / 255 }) }
            let e = formula(px)
            for c in 0..<4 {
                let want = Int((min(max(e[c], 0), 1) * 255).rounded())
                worst = max(worst, abs(want - Int(out[p + c])))
            }
        }
        return worst
    }

    static let header = """
    varying highp vec2 textureCoordinate;
    varying highp vec2 textureCoordinate2;
    uniform sampler2D inputImageTexture;
    uniform sampler2D inputImageTexture2;

    """

    @Test func gpuImageTwoInputShadersMatchTheirFormulas() throws {
        let dir = CLI.tempDir()
        let a = Self.pattern(seed: 1), b = Self.pattern(seed: 2)
        // GPUImageMultiplyBlendFilter
        let multiply = try Self.runShader(Self.header + """
        void main() {
            lowp vec4 base = texture2D(inputImageTexture, textureCoordinate);
            lowp vec4 overlayer = texture2D(inputImageTexture2, textureCoordinate2);
            gl_FragColor = overlayer * base + overlayer * (1.0 - base.a) + base * (1.0 - overlayer.a);
        }
        """, inputs: [a, b], dir: dir)
        #expect(Self.worst(multiply, [a, b]) { p in p[1] * p[0] + p[1] * (1 - p[0][3]) + p[0] * (1 - p[1][3]) } <= 1)
        // GPUImageAlphaBlendFilter
        let alpha = try Self.runShader(Self.header + """
        uniform lowp float mixturePercent;
        void main() {
            lowp vec4 textureColor = texture2D(inputImageTexture, textureCoordinate);
            lowp vec4 textureColor2 = texture2D(inputImageTexture2, textureCoordinate2);
            gl_FragColor = vec4(mix(textureColor.rgb, textureColor2.rgb, textureColor2.a * mixturePercent), textureColor.a);
        }
        """, uniforms: "{ \"mixturePercent\": 0.7 }", inputs: [a, b], dir: dir)
        #expect(Self.worst(alpha, [a, b]) { p in
            let t = p[1][3] * 0.7
            return SIMD4(p[0][0] * (1 - t) + p[1][0] * t, p[0][1] * (1 - t) + p[1][1] * t, p[0][2] * (1 - t) + p[1][2] * t, p[0][3])
        } <= 1)
        // GPUImageMaskFilter
        let mask = try Self.runShader(Self.header + """
        void main() {
            lowp vec4 textureColor = texture2D(inputImageTexture, textureCoordinate);
            lowp vec4 textureColor2 = texture2D(inputImageTexture2, textureCoordinate2);
            lowp float newAlpha = dot(textureColor2.rgb, vec3(.33333334, .33333334, .33333334)) * textureColor2.a;
            gl_FragColor = vec4(textureColor.xyz, newAlpha);
        }
        """, inputs: [a, b], dir: dir)
        #expect(Self.worst(mask, [a, b]) { p in SIMD4(p[0][0], p[0][1], p[0][2], (p[1][0] + p[1][1] + p[1][2]) / 3 * p[1][3]) } <= 1)
        // GPUImageChromaKeyBlendFilter
        let key = try Self.runShader(Self.header + """
        precision highp float;
        uniform float thresholdSensitivity;
        uniform float smoothing;
        uniform vec3 colorToReplace;
        void main() {
            vec4 textureColor = texture2D(inputImageTexture, textureCoordinate);
            vec4 textureColor2 = texture2D(inputImageTexture2, textureCoordinate2);
            float maskY = 0.2989 * colorToReplace.r + 0.5866 * colorToReplace.g + 0.1145 * colorToReplace.b;
            float maskCr = 0.7132 * (colorToReplace.r - maskY);
            float maskCb = 0.5647 * (colorToReplace.b - maskY);
            float Y = 0.2989 * textureColor.r + 0.5866 * textureColor.g + 0.1145 * textureColor.b;
            float Cr = 0.7132 * (textureColor.r - Y);
            float Cb = 0.5647 * (textureColor.b - Y);
            float blendValue = 1.0 - smoothstep(thresholdSensitivity, thresholdSensitivity + smoothing, distance(vec2(Cr, Cb), vec2(maskCr, maskCb)));
            gl_FragColor = mix(textureColor, textureColor2, blendValue);
        }
        """, uniforms: "{ \"thresholdSensitivity\": 0.3, \"smoothing\": 0.1, \"colorToReplace\": [0, 1, 0] }", inputs: [a, b], dir: dir)
        #expect(Self.worst(key, [a, b]) { p in
            func y(_ c: SIMD4<Double>) -> Double { 0.2989 * c[0] + 0.5866 * c[1] + 0.1145 * c[2] }
            let maskY = 0.5866, maskCr = 0.7132 * (0 - maskY), maskCb = 0.5647 * (0 - maskY)
            let cr = 0.7132 * (p[0][0] - y(p[0])), cb = 0.5647 * (p[0][2] - y(p[0]))
            let d = ((cr - maskCr) * (cr - maskCr) + (cb - maskCb) * (cb - maskCb)).squareRoot()
            let s = min(max((d - 0.3) / 0.1, 0), 1)
            let blend = 1 - s * s * (3 - 2 * s)
            return p[0] * (1 - blend) + p[1] * blend
        } <= 1)
    }

    /// ffmpeg's `blend` (on gbrap) and the same formula as a shader, on the colour channels:
    /// multiply and screen truncate in ffmpeg where we round (within 1 LSB); addition,
    /// subtraction, difference, darken and lighten are identical. (Alpha is left out: ffmpeg's
    /// rgba → gbrap → rgba path moves it by 1 even for `lighten`, max(a, b).)
    @Test(arguments: [("multiply", "a * b", 1), ("screen", "1.0 - (1.0 - a) * (1.0 - b)", 1), ("addition", "min(a + b, 1.0)", 0),
                      ("subtract", "max(a - b, 0.0)", 0), ("difference", "abs(a - b)", 0), ("darken", "min(a, b)", 0), ("lighten", "max(a, b)", 0)])
    func blendModesMatchFFmpegsBlend(mode: String, formula: String, tolerance: Int) throws {
        let dir = CLI.tempDir()
        let a = Self.pattern(seed: 3), b = Self.pattern(seed: 4)
        let ours = try Self.runShader(Self.header + """
        void main() {
            highp vec4 a = texture2D(inputImageTexture, textureCoordinate);
            highp vec4 b = texture2D(inputImageTexture2, textureCoordinate2);
            gl_FragColor = \(formula);
        }
        """, inputs: [a, b], dir: dir)
        let f = try CLI.run("ffmpeg", ["-v", "error", "-y",
                                       "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(Self.width)x\(Self.height)", "-i", "\(dir)/i0.raw",
                                       "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(Self.width)x\(Self.height)", "-i", "\(dir)/i1.raw",
                                       "-filter_complex", "[0]format=gbrap[a];[1]format=gbrap[b];[a][b]blend=all_mode=\(mode),format=rgba", "-f", "rawvideo", "\(dir)/ffmpeg.raw"])
        #expect(f.status == 0, "\(f.stderr)")
        let theirs = [UInt8](FileManager.default.contents(atPath: "\(dir)/ffmpeg.raw") ?? Data())
        #expect(ours.count == theirs.count && !ours.isEmpty)
        let worst = zip(ours, theirs).enumerated().filter { $0.offset % 4 != 3 }.map { abs(Int($0.element.0) - Int($0.element.1)) }.max() ?? 999
        #expect(worst <= tolerance, "\(mode): differs from ffmpeg's blend by up to \(worst)")
    }

    @Test func aTextureWithoutItsInputIsAValidationErrorNamingNodePortAndShader() throws {
        let dir = CLI.tempDir()
        try (Self.header + "void main() { gl_FragColor = texture2D(inputImageTexture, textureCoordinate) * texture2D(inputImageTexture2, textureCoordinate2); }")
            .write(toFile: dir + "/blend.glsl", atomically: true, encoding: .utf8)
        let graph = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 1, "format": "rgba" } },
                     "f": { "type": "shader", "params": { "file": "\(dir)/blend.glsl" } }, "out": { "type": "nullsink" } },
          "chains": [["src", "f", "out"]] }
        """, in: dir)
        let r = try CLI.mediagraph("validate", graph)
        #expect(r.status == 2)
        #expect(r.stderr.contains("shader \(dir)/blend.glsl samples 'inputImageTexture2' (input 2), but input 'in1' of node 'f' is not connected; connect rgba video to f.in1"), "\(r.stderr)")
    }
}
