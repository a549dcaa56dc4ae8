// Vignette: fades towards vignetteColor between vignetteStart and vignetteEnd, distances in
// texture coordinates from vignetteCenter.
varying highp vec2 textureCoordinate;
uniform sampler2D inputImageTexture;

uniform lowp vec2 vignetteCenter;
uniform lowp vec3 vignetteColor;
uniform highp float vignetteStart;
uniform highp float vignetteEnd;

void main()
{
    lowp vec4 sourceImageColor = texture2D(inputImageTexture, textureCoordinate);
    lowp float d = distance(textureCoordinate, vignetteCenter);
    lowp float percent = smoothstep(vignetteStart, vignetteEnd, d);
    gl_FragColor = vec4(mix(sourceImageColor.rgb, vignetteColor, percent), sourceImageColor.a);
}
