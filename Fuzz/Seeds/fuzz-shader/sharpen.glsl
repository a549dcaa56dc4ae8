// Sharpen: the pixel times (1 + 4 * sharpness) minus sharpness times its four neighbours
// (3x3 taps from GPUImage's neighbour varyings; edges repeat the border pixel). Alpha kept.
precision highp float;

varying highp vec2 textureCoordinate;
varying highp vec2 leftTextureCoordinate;
varying highp vec2 rightTextureCoordinate;
varying highp vec2 topTextureCoordinate;
varying highp vec2 bottomTextureCoordinate;

uniform sampler2D inputImageTexture;
uniform float sharpness;

void main()
{
    float centerMultiplier = 1.0 + 4.0 * sharpness;
    float edgeMultiplier = sharpness;
    vec4 textureColor = texture2D(inputImageTexture, textureCoordinate);
    vec3 leftTextureColor = texture2D(inputImageTexture, leftTextureCoordinate).rgb;
    vec3 rightTextureColor = texture2D(inputImageTexture, rightTextureCoordinate).rgb;
    vec3 topTextureColor = texture2D(inputImageTexture, topTextureCoordinate).rgb;
    vec3 bottomTextureColor = texture2D(inputImageTexture, bottomTextureCoordinate).rgb;

    vec3 neighbours = leftTextureColor + rightTextureColor + topTextureColor + bottomTextureColor;
    gl_FragColor = vec4(textureColor.rgb * centerMultiplier - neighbours * edgeMultiplier, textureColor.w);
}
