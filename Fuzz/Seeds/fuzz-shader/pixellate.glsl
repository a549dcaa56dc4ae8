// Pixellate: square blocks fractionalWidthOfPixel of the image width wide, each showing the
// colour at its centre.
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;

uniform highp vec2 imageSize;   // provided by the filter
uniform highp float fractionalWidthOfPixel;

void main()
{
    highp vec2 sampleDivisor = vec2(fractionalWidthOfPixel, fractionalWidthOfPixel * imageSize.x / imageSize.y);
    highp vec2 samplePos = textureCoordinate - mod(textureCoordinate, sampleDivisor) + 0.5 * sampleDivisor;
    gl_FragColor = texture2D(inputImageTexture, samplePos);
}
