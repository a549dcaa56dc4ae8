// Colour inversion: rgb' = 1 - rgb, alpha kept.
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;

void main()
{
    lowp vec4 color = texture2D(inputImageTexture, textureCoordinate);
    gl_FragColor = vec4(1.0 - color.rgb, color.a);
}
