// Sepia tone: GPUImage's sepia colour matrix, mixed with the input by intensity (0...1).
// `color * sepiaMatrix` multiplies a row vector by a column-major matrix: out.r = dot(color, column 0).
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;
uniform lowp float intensity;

const lowp mat4 sepiaMatrix = mat4(0.3588, 0.7044, 0.1368, 0.0,
                                   0.2990, 0.5870, 0.1140, 0.0,
                                   0.2392, 0.4696, 0.0912, 0.0,
                                   0.0,    0.0,    0.0,    1.0);

void main()
{
    lowp vec4 color = texture2D(inputImageTexture, textureCoordinate);
    lowp vec4 toned = color * sepiaMatrix;
    gl_FragColor = (intensity * toned) + ((1.0 - intensity) * color);
}
