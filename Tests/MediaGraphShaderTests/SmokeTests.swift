import Testing
import MediaGraphShader

@Test func smokeInvert() throws {
    let src = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    void main() {
        lowp vec4 c = texture2D(inputImageTexture, textureCoordinate);
        gl_FragColor = vec4((1.0 - c.rgb), c.w);
    }
    """
    let input = TestImage.pattern(width: 37, height: 21)
    let out = try runShader(src, on: input)
    let w = maxDifference(out) { x, y in SIMD4(1 - input.unit(x, y, 0), 1 - input.unit(x, y, 1), 1 - input.unit(x, y, 2), input.unit(x, y, 3)) }
    #expect(w.diff == 0)
}

@Test func smokeErrors() throws {
    let src = """
    void main() {
        vec3 a = vec3(1.0);
        vec4 b = a + vec4(1.0);
        gl_FragColor = foo;
    }
    """
    do {
        _ = try ShaderProgram(source: src, fileName: "bad.glsl")
        Issue.record("no error")
    } catch let e as ShaderCompileError {
        print(e)
    }
}
