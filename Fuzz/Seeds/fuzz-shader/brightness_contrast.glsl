// Brightness then contrast: rgb' = (rgb + brightness - 0.5) * contrast + 0.5, alpha kept.
// brightness -1...1 (0 = unchanged), contrast 0...4 (1 = unchanged).
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;
uniform lowp float brightness;
uniform lowp float contrast;

void main()
{
    lowp vec4 color = texture2D(inputImageTexture, textureCoordinate);
    lowp vec3 brightened = color.rgb + vec3(brightness);
    gl_FragColor = vec4((brightened - vec3(0.5)) * contrast + vec3(0.5), color.a);
}
