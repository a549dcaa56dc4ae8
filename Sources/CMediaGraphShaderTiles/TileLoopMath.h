// Vector forms of atan, atan2, exp2, log2 (and through them exp, log, pow) on 8 lanes, for the
// tile loop: libm lane by lane made GPUImage's Hue, PolarPixellate and GlassSphere slower than
// llvmpipe. Included by TileLoopBody.h after its helpers. Each takes lanes it can do exactly
// enough and says so; the caller sends the rest to libm. The coefficients are series terms
// (exp2: ln2^k / k!; log2: 2 atanh(f) = 2 (f + f^3/3 + ...)) or our own fit (atan, ~1.5 ulp
// on [0, tan(pi/8)]). Plain multiplies and adds (no FMA): both builds give the same bits.

/// Lanes where x is a positive normal float (log2's domain here).
F v8i positiveNormal(v8 x) { return (x >= 1.17549435e-38f) & (x <= 3.40282347e38f); }

/// log2 of positive normal lanes: x = m 2^e with m in [sqrt(1/2), sqrt(2)), and
/// log2(m) = (2 / ln 2) atanh(f), f = (m - 1) / (m + 1), |f| <= 0.172: five series terms leave
/// an error of a few 1e-9, far below float's ulp.
F v8 vlog2(v8 x) {
    v8i bits = (v8i)x;
    v8i exponent = ((bits >> 23) & 0xFF) - 127;
    v8 m = (v8)((bits & 0x007FFFFF) | 0x3F800000);
    v8i high = m > 1.41421356f;
    m = sel(high, m * 0.5f, m);
    exponent = exponent - high;  // high lanes are -1
    v8 f = (m - 1.0f) / (m + 1.0f);
    v8 z = f * f;
    v8 series = ((((z * (1.0f / 9.0f) + (1.0f / 7.0f)) * z + (1.0f / 5.0f)) * z + (1.0f / 3.0f)) * z) * f + f;
    return __builtin_convertvector(exponent, v8) + series * 2.885390043258667f;
}

/// 2^x for lanes in [-126, 127]: 2^n (n the nearest integer, put in the exponent bits) times
/// 2^r for r in [-0.5, 0.5] by its series to r^7 (relative error under 1e-8).
F v8 vexp2(v8 x) {
    const float magic = 12582912.0f;
    v8 n = (x + magic) - magic;
    v8 r = x - n;
    v8 p = (v8)1.5252733646775596e-05f;
    p = p * r + 1.540352968731895e-04f;
    p = p * r + 1.3333557872101665e-03f;
    p = p * r + 9.618128649890423e-03f;
    p = p * r + 5.550410971045494e-02f;
    p = p * r + 2.4022650718688965e-01f;
    p = p * r + 6.931471824645996e-01f;
    p = p * r + 1.0f;
    v8 scale = (v8)((__builtin_convertvector(n, v8i) + 127) << 23);
    return p * scale;
}

/// Lanes vexp2 takes.
F v8i exp2Range(v8 x) { return (x >= -126.0f) & (x <= 127.0f); }

/// atan2(y, x) for finite lanes: the smaller magnitude over the larger gives t in [0, 1],
/// folded to [-tan(pi/8), tan(pi/8)] by atan(t) = pi/4 + atan((t - 1) / (t + 1)), then the
/// octant put back. (0, 0) gives 0, or pi for x = -0 is not distinguished (GLSL leaves it open).
F v8 vatan2(v8 y, v8 x) {
    v8 ax = sel(x < 0.0f, -x, x), ay = sel(y < 0.0f, -y, y);
    v8i yLarger = ay > ax;
    v8 num = sel(yLarger, ax, ay), den = sel(yLarger, ay, ax);
    v8 t = sel(den > 0.0f, num / sel(den > 0.0f, den, (v8)1.0f), (v8)0.0f);
    v8i upper = t > 0.41421356f;
    v8 u = sel(upper, (t - 1.0f) / (t + 1.0f), t);
    v8 z = u * u;
    v8 p = (v8)0.07994134724140167f;
    p = p * z - 0.13854646682739258f;
    p = p * z + 0.1997474879026413f;
    p = p * z - 0.33332809805870056f;
    v8 r = (p * z) * u + u;
    r = sel(upper, r + 0.7853981852531433f, r);
    r = sel(yLarger, 1.5707963705062866f - r, r);
    r = sel(x < 0.0f, 3.1415927410125732f - r, r);
    return sel((v8i)y < 0, -r, r);
}

/// Lanes that are neither infinite nor NaN.
F v8i finiteLanes(v8 x) { return (x >= -3.40282347e38f) & (x <= 3.40282347e38f); }
