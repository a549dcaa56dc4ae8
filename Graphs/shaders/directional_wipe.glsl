// A wipe in the gl-transitions form (after gl-transitions' "directional" family, our own code):
// the next clip comes in from the left with a soft edge.
uniform float smoothness; // = 0.1

vec4 transition(vec2 uv) {
    float edge = progress * (1.0 + smoothness);
    float m = smoothstep(edge - smoothness, edge, 1.0 - uv.x);
    return mix(getToColor(uv), getFromColor(uv), m);
}
