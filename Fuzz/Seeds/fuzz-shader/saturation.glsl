// Saturation: mix from the Rec. 709 luminance (0) through the input (1) to more colourful (2).
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;
uniform lowp float saturation;

const mediump vec3 luminanceWeighting = vec3(0.2125, 0.7154, 0.0721);

void main()
{
    lowp vec4 color = texture2D(inputImageTexture, textureCoordinate);
    lowp float luminance = dot(color.rgb, luminanceWeighting);
    lowp vec3 greyScaleColor = vec3(luminance);
    gl_FragColor = vec4(mix(greyScaleColor, color.rgb, saturation), color.w);
}
