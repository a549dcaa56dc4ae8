// Grayscale: every channel becomes the Rec. 709 luminance, alpha kept.
precision highp float;
varying vec2 textureCoordinate;
uniform sampler2D inputImageTexture;

const vec3 luminanceWeights = vec3(0.2125, 0.7154, 0.0721);

void main()
{
    vec4 color = texture2D(inputImageTexture, textureCoordinate);
    float luminance = dot(color.rgb, luminanceWeights);
    gl_FragColor = vec4(vec3(luminance), color.a);
}
