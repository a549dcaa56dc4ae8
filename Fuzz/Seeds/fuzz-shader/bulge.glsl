// Bulge (scale > 0) or pinch (scale < 0) inside radius around center; distances measured with
// the image's aspect ratio so the bulge is round.
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;

uniform highp vec2 imageSize;   // provided by the filter
uniform highp float radius;
uniform highp float scale;
uniform highp vec2 center;

void main()
{
    highp float aspectRatio = imageSize.y / imageSize.x;
    highp vec2 textureCoordinateToUse = vec2(textureCoordinate.x, ((textureCoordinate.y - center.y) * aspectRatio) + center.y);
    highp float dist = distance(center, textureCoordinateToUse);
    textureCoordinateToUse = textureCoordinate;

    if (dist < radius)
    {
        textureCoordinateToUse -= center;
        highp float percent = 1.0 - ((radius - dist) / radius) * scale;
        percent = percent * percent;
        textureCoordinateToUse = textureCoordinateToUse * percent;
        textureCoordinateToUse += center;
    }

    gl_FragColor = texture2D(inputImageTexture, textureCoordinateToUse);
}
