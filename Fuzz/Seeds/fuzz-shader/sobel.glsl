// Sobel edge detection on the Rec. 709 luminance: white edges on black, opaque.
// edgeStrength scales the gradient magnitude (1 = plain Sobel).
precision mediump float;

varying vec2 textureCoordinate;
varying vec2 leftTextureCoordinate;
varying vec2 rightTextureCoordinate;
varying vec2 topTextureCoordinate;
varying vec2 topLeftTextureCoordinate;
varying vec2 topRightTextureCoordinate;
varying vec2 bottomTextureCoordinate;
varying vec2 bottomLeftTextureCoordinate;
varying vec2 bottomRightTextureCoordinate;

uniform sampler2D inputImageTexture;
uniform float edgeStrength;

const vec3 W = vec3(0.2125, 0.7154, 0.0721);

float intensity(vec2 coordinate)
{
    return dot(texture2D(inputImageTexture, coordinate).rgb, W);
}

void main()
{
    float bottomLeftIntensity = intensity(bottomLeftTextureCoordinate);
    float topRightIntensity = intensity(topRightTextureCoordinate);
    float topLeftIntensity = intensity(topLeftTextureCoordinate);
    float bottomRightIntensity = intensity(bottomRightTextureCoordinate);
    float leftIntensity = intensity(leftTextureCoordinate);
    float rightIntensity = intensity(rightTextureCoordinate);
    float bottomIntensity = intensity(bottomTextureCoordinate);
    float topIntensity = intensity(topTextureCoordinate);

    float h = -topLeftIntensity - 2.0 * topIntensity - topRightIntensity + bottomLeftIntensity + 2.0 * bottomIntensity + bottomRightIntensity;
    float v = -bottomLeftIntensity - 2.0 * leftIntensity - topLeftIntensity + bottomRightIntensity + 2.0 * rightIntensity + topRightIntensity;

    float mag = length(vec2(h, v)) * edgeStrength;

    gl_FragColor = vec4(vec3(mag), 1.0);
}
