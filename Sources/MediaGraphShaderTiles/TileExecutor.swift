#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Runs kernel instructions over one tile of pixels. Registers live in one raw buffer:
/// register r is `Instruction.lanes` floats at byte offset r * lanes * 4.
struct TileExecutor {
    typealias V = SIMD8<Float>
    static let chunks = Instruction.lanes / 8
    static let registerBytes = Instruction.registerBytes

    let registers: UnsafeMutableRawPointer
    let source: UnsafePointer<UInt8>
    let sourceStride: Int
    let width: Int
    let height: Int
    let widthF: Float
    let heightF: Float

    @inline(__always) func reg(_ r: Int32) -> UnsafeMutableRawPointer {
        registers + Int(r) * TileExecutor.registerBytes
    }

    @inline(__always) func load(_ p: UnsafeMutableRawPointer, _ k: Int) -> V {
        p.load(fromByteOffset: k * 32, as: V.self)
    }

    @inline(__always) func store(_ p: UnsafeMutableRawPointer, _ k: Int, _ v: V) {
        p.storeBytes(of: v, toByteOffset: k * 32, as: V.self)
    }

    @inline(__always) func map1(_ i: Instruction, _ f: (V) -> V) {
        let d = reg(i.dst), a = reg(i.a)
        for k in 0..<TileExecutor.chunks { store(d, k, f(load(a, k))) }
    }

    @inline(__always) func map2(_ i: Instruction, _ f: (V, V) -> V) {
        let d = reg(i.dst), a = reg(i.a), b = reg(i.b)
        for k in 0..<TileExecutor.chunks { store(d, k, f(load(a, k), load(b, k))) }
    }

    /// Lane-by-lane for operations without a SIMD form (transcendentals).
    @inline(__always) func lanes1(_ i: Instruction) {
        let d = reg(i.dst), a = reg(i.a)
        let op = i.op
        for l in 0..<Instruction.lanes {
            let x = a.load(fromByteOffset: l * 4, as: Float.self)
            d.storeBytes(of: ScalarMath.unary(op, x), toByteOffset: l * 4, as: Float.self)
        }
    }

    @inline(__always) func lanes2(_ i: Instruction) {
        let d = reg(i.dst), a = reg(i.a), b = reg(i.b)
        let op = i.op
        for l in 0..<Instruction.lanes {
            let x = a.load(fromByteOffset: l * 4, as: Float.self)
            let y = b.load(fromByteOffset: l * 4, as: Float.self)
            d.storeBytes(of: ScalarMath.binary(op, x, y), toByteOffset: l * 4, as: Float.self)
        }
    }

    @inline(__always) static func floor(_ x: V) -> V { SIMDMath.floor(x) }

    /// Whole numbers below 2^23 to Float with one OR and one subtraction (2^23's exponent makes
    /// the mantissa the integer); the generic SIMD conversion is element by element.
    @inline(__always) static func float(_ v: SIMD8<UInt32>) -> V {
        unsafeBitCast(v | 0x4B00_0000, to: V.self) - 8_388_608
    }

    /// Runs one instruction for the tile starting at pixel (x0, y).
    func execute(_ i: Instruction, x0: Int, y: Int, uniforms: UnsafePointer<Float>) {
        let one = V(repeating: 1), zero = V(repeating: 0)
        switch i.op {
        case .const: map1Splat(i, i.imm)
        case .uniform: map1Splat(i, uniforms[Int(i.imm2)])
        case .frameWidth: map1Splat(i, widthF)
        case .frameHeight: map1Splat(i, heightF)
        case .texelWidth: map1Splat(i, 1 / widthF)
        case .texelHeight: map1Splat(i, 1 / heightF)
        case .opaque: map1Splat(i, 0)
        case .coordX:
            let d = reg(i.dst)
            let base = Float(x0) + i.imm + 0.5
            let w = V(repeating: widthF)
            let ramp = V(0, 1, 2, 3, 4, 5, 6, 7)
            for k in 0..<TileExecutor.chunks {
                store(d, k, (ramp + V(repeating: base + Float(k * 8))) / w)
            }
        case .coordY: map1Splat(i, (Float(y) + i.imm + 0.5) / heightF)
        case .add: map2(i) { $0 + $1 }
        case .sub: map2(i) { $0 - $1 }
        case .mul: map2(i) { $0 * $1 }
        case .div: map2(i) { $0 / $1 }
        case .neg: map1(i) { -$0 }
        case .min: map2(i) { a, b in a.replacing(with: b, where: b .< a) }
        case .max: map2(i) { a, b in a.replacing(with: b, where: a .< b) }
        case .floor: map1(i) { TileExecutor.floor($0) }
        case .ceil: map1(i) { -TileExecutor.floor(-$0) }
        case .trunc: map1(i) { x in TileExecutor.floor(x).replacing(with: -TileExecutor.floor(-x), where: x .< 0) }
        case .fract: map1(i) { $0 - TileExecutor.floor($0) }
        case .mod: map2(i) { a, b in a - b * TileExecutor.floor(a / b) }
        case .abs: map1(i) { $0.replacing(with: -$0, where: $0 .< 0) }
        case .sign: map1(i) { x in zero.replacing(with: one, where: x .> 0).replacing(with: -one, where: x .< 0) }
        case .sqrt: map1(i) { $0.squareRoot() }
        case .rsqrt: map1(i) { one / $0.squareRoot() }
        case .sin, .cos:
            let d = reg(i.dst), a = reg(i.a)
            let wantSin = i.op == .sin
            for k in 0..<TileExecutor.chunks {
                let x = load(a, k)
                if SIMDMath.inFastRange(x) {
                    let sc = SIMDMath.sinCos(x)
                    store(d, k, wantSin ? sc.sin : sc.cos)
                } else {
                    var out = x
                    for l in 0..<8 { out[l] = ScalarMath.unary(i.op, x[l]) }
                    store(d, k, out)
                }
            }
        case .tan, .asin, .acos, .atan, .exp, .log, .exp2, .log2: lanes1(i)
        case .atan2, .pow: lanes2(i)
        case .lt: map2(i) { a, b in zero.replacing(with: one, where: a .< b) }
        case .le: map2(i) { a, b in zero.replacing(with: one, where: a .<= b) }
        case .eq: map2(i) { a, b in zero.replacing(with: one, where: a .== b) }
        case .ne: map2(i) { a, b in zero.replacing(with: one, where: a .!= b) }
        case .and: map2(i) { a, b in zero.replacing(with: one, where: (a .!= 0) .& (b .!= 0)) }
        case .or: map2(i) { a, b in zero.replacing(with: one, where: (a .!= 0) .| (b .!= 0)) }
        case .xor: map2(i) { a, b in zero.replacing(with: one, where: (a .!= 0) .^ (b .!= 0)) }
        case .not: map1(i) { a in zero.replacing(with: one, where: a .== 0) }
        case .select:
            let d = reg(i.dst), c = reg(i.a), t = reg(i.b), f = reg(i.c)
            for k in 0..<TileExecutor.chunks {
                let cond = load(c, k)
                store(d, k, load(t, k).replacing(with: load(f, k), where: cond .== 0))
            }
        case .texture: sampleBilinear(i)
        case .loadPixel: loadTexels(i, x0: x0, y: y)
        case .channel: break
        }
    }

    @inline(__always) func map1Splat(_ i: Instruction, _ value: Float) {
        let d = reg(i.dst)
        let v = V(repeating: value)
        for k in 0..<TileExecutor.chunks { store(d, k, v) }
    }

    /// The texel at (x + dx, y + dy), clamped to the frame, as 0...1.
    private func loadTexels(_ i: Instruction, x0: Int, y: Int) {
        let row = source + min(max(y + Int(i.imm2), 0), height - 1) * sourceStride
        let dx = Int(i.imm)
        let r = reg(i.dst), g = reg(i.dst1), b = reg(i.dst2), a = reg(i.dst3)
        let first = x0 + dx
        if first >= 0 && first + Instruction.lanes <= width {
            // Whole tile inside the row: 8 pixels at a time, channels split with shifts.
            let base = UnsafeRawPointer(row + first * 4)
            let mask = SIMD8<UInt32>(repeating: 0xFF)
            // Division, not a reciprocal multiply: byte / 255 correctly rounded, as GPUs convert.
            let s = V(repeating: 255)
            for k in 0..<TileExecutor.chunks {
                let p = base.loadUnaligned(fromByteOffset: k * 32, as: SIMD8<UInt32>.self)
                store(r, k, TileExecutor.float(p & mask) / s)
                store(g, k, TileExecutor.float((p &>> 8) & mask) / s)
                store(b, k, TileExecutor.float((p &>> 16) & mask) / s)
                store(a, k, TileExecutor.float(p &>> 24) / s)
            }
            return
        }
        let last = width - 1
        for l in 0..<Instruction.lanes {
            let p = row + min(max(x0 + l + dx, 0), last) * 4
            r.storeBytes(of: Float(p[0]) / 255, toByteOffset: l * 4, as: Float.self)
            g.storeBytes(of: Float(p[1]) / 255, toByteOffset: l * 4, as: Float.self)
            b.storeBytes(of: Float(p[2]) / 255, toByteOffset: l * 4, as: Float.self)
            a.storeBytes(of: Float(p[3]) / 255, toByteOffset: l * 4, as: Float.self)
        }
    }

    /// Bilinear sample with clamp-to-edge, as a GPU samples a GL_LINEAR, GL_CLAMP_TO_EDGE texture.
    /// Lane by lane: the four texel reads are scattered anyway, and filling SIMD lanes one at a
    /// time through memory stalls on store forwarding (measured 4x slower).
    private func sampleBilinear(_ i: Instruction) {
        let u = reg(i.a), v = reg(i.b)
        let r = reg(i.dst), g = reg(i.dst1), b = reg(i.dst2), a = reg(i.dst3)
        let lastX = width - 1, lastY = height - 1
        let stride = sourceStride
        let maxX = widthF + 1, maxY = heightF + 1
        /// The four texels around lane `l` (row0 + x0, row0 + x1, row1 + x0, row1 + x1) and their
        /// weights, which carry the 1/255 so the channels need no division.
        @inline(__always) func footprint(_ l: Int) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>, Int, Int,
                                                       Float, Float, Float, Float) {
            // Shifted by +1 so the value is >= 0 and truncation is floor (no libm floorf call);
            // far outside (or NaN) is pinned to just outside the edge, which clamps to it.
            var fx = u.load(fromByteOffset: l * 4, as: Float.self) * widthF + 0.5
            var fy = v.load(fromByteOffset: l * 4, as: Float.self) * heightF + 0.5
            if !(fx > 0) { fx = 0 }
            if !(fx < maxX) { fx = maxX }
            if !(fy > 0) { fy = 0 }
            if !(fy < maxY) { fy = maxY }
            let ix1 = Int(fx), iy1 = Int(fy)
            let ax = fx - Float(ix1), ay = fy - Float(iy1)
            let x0 = min(max(ix1 - 1, 0), lastX) * 4, x1 = min(ix1, lastX) * 4
            let row0 = source + min(max(iy1 - 1, 0), lastY) * stride
            let row1 = source + min(iy1, lastY) * stride
            let bx = 1 - ax, top = (1 - ay) * (1 / 255 as Float), bottom = ay * (1 / 255 as Float)
            return (row0, row1, x0, x1, bx * top, ax * top, bx * bottom, ax * bottom)
        }
        #if MEDIAGRAPH_SHADER_AVX2 && arch(x86_64)
        // The AVX2 build (MediaGraphShaderAVX2 defines the condition): eight lanes per step in
        // planar form, the same operations in the same order as the paths below, so the same bits.
        let zero = _mm256_setzero_ps(), limitX = _mm256_set1_ps(maxX), limitY = _mm256_set1_ps(maxY)
        let scaleX = _mm256_set1_ps(widthF), scaleY = _mm256_set1_ps(heightF), half = _mm256_set1_ps(0.5)
        let one = _mm256_set1_ps(1), inverse255 = _mm256_set1_ps(1 / 255 as Float)
        let zeroI = _mm256_setzero_si256(), oneI = _mm256_set1_epi32(1)
        let lastXI = _mm256_set1_epi32(Int32(lastX)), lastYI = _mm256_set1_epi32(Int32(lastY))
        let strideI = _mm256_set1_epi32(Int32(stride)), mask = _mm256_set1_epi32(0xFF)
        var offsets = (SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>(), SIMD8<Int32>())
        for l in Swift.stride(from: 0, to: Instruction.lanes, by: 8) {
            // NaN and below 0 become 0 (max returns its second operand for NaN), above the edge
            // the edge: as the scalar code's two comparisons.
            let fx = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(u.assumingMemoryBound(to: Float.self) + l), scaleX), half), zero), limitX)
            let fy = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(v.assumingMemoryBound(to: Float.self) + l), scaleY), half), zero), limitY)
            let ix1 = _mm256_cvttps_epi32(fx), iy1 = _mm256_cvttps_epi32(fy)
            let ax = _mm256_sub_ps(fx, _mm256_cvtepi32_ps(ix1)), ay = _mm256_sub_ps(fy, _mm256_cvtepi32_ps(iy1))
            let x0 = _mm256_slli_epi32(_mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(ix1, oneI), zeroI), lastXI), 2)
            let x1 = _mm256_slli_epi32(_mm256_min_epi32(ix1, lastXI), 2)
            let row0 = _mm256_mullo_epi32(_mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(iy1, oneI), zeroI), lastYI), strideI)
            let row1 = _mm256_mullo_epi32(_mm256_min_epi32(iy1, lastYI), strideI)
            let bx = _mm256_sub_ps(one, ax)
            let top = _mm256_mul_ps(_mm256_sub_ps(one, ay), inverse255), bottom = _mm256_mul_ps(ay, inverse255)
            let w00 = _mm256_mul_ps(bx, top), w01 = _mm256_mul_ps(ax, top)
            let w10 = _mm256_mul_ps(bx, bottom), w11 = _mm256_mul_ps(ax, bottom)
            // Byte offsets of the four corners, read back lane by lane for the loads (a vector
            // store followed by scalar loads forwards well; the reverse would stall).
            offsets.0 = unsafeBitCast(_mm256_add_epi32(row0, x0), to: SIMD8<Int32>.self)
            offsets.1 = unsafeBitCast(_mm256_add_epi32(row0, x1), to: SIMD8<Int32>.self)
            offsets.2 = unsafeBitCast(_mm256_add_epi32(row1, x0), to: SIMD8<Int32>.self)
            offsets.3 = unsafeBitCast(_mm256_add_epi32(row1, x1), to: SIMD8<Int32>.self)
            @inline(__always) func texels(_ o: SIMD8<Int32>) -> __m256i {
                @inline(__always) func at(_ k: Int) -> Int32 {
                    Int32(bitPattern: UnsafeRawPointer(source + Int(o[k])).loadUnaligned(as: UInt32.self))
                }
                return _mm256_set_epi32(at(7), at(6), at(5), at(4), at(3), at(2), at(1), at(0))
            }
            let t00 = texels(offsets.0), t01 = texels(offsets.1), t10 = texels(offsets.2), t11 = texels(offsets.3)
            @inline(__always) func channel(_ shift: Int32) -> __m256 {
                @inline(__always) func f(_ t: __m256i) -> __m256 {
                    _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(t, shift), mask))
                }
                let topRow = _mm256_add_ps(_mm256_mul_ps(f(t00), w00), _mm256_mul_ps(f(t01), w01))
                return _mm256_add_ps(_mm256_add_ps(topRow, _mm256_mul_ps(f(t10), w10)), _mm256_mul_ps(f(t11), w11))
            }
            _mm256_storeu_ps(r.assumingMemoryBound(to: Float.self) + l, channel(0))
            _mm256_storeu_ps(g.assumingMemoryBound(to: Float.self) + l, channel(8))
            _mm256_storeu_ps(b.assumingMemoryBound(to: Float.self) + l, channel(16))
            _mm256_storeu_ps(a.assumingMemoryBound(to: Float.self) + l, channel(24))
        }
        #elseif arch(x86_64)
        // Four lanes at a time: each texel's four bytes widened to one Float vector, blended with
        // the weights in the scalar code's order (same results, bit for bit), then a 4x4
        // transpose puts red, green, blue and alpha of the four lanes into their registers.
        let zero = _mm_setzero_si128()
        @inline(__always) func texel(_ p: UnsafePointer<UInt8>) -> __m128 {
            let word = _mm_cvtsi32_si128(Int32(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)))
            return _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(word, zero), zero))
        }
        @inline(__always) func sample(_ l: Int) -> __m128 {
            let (row0, row1, x0, x1, w00, w01, w10, w11) = footprint(l)
            let top = _mm_add_ps(_mm_mul_ps(texel(row0 + x0), _mm_set1_ps(w00)), _mm_mul_ps(texel(row0 + x1), _mm_set1_ps(w01)))
            return _mm_add_ps(_mm_add_ps(top, _mm_mul_ps(texel(row1 + x0), _mm_set1_ps(w10))),
                              _mm_mul_ps(texel(row1 + x1), _mm_set1_ps(w11)))
        }
        for l in Swift.stride(from: 0, to: Instruction.lanes, by: 4) {
            let c0 = sample(l), c1 = sample(l + 1), c2 = sample(l + 2), c3 = sample(l + 3)
            let rg01 = _mm_unpacklo_ps(c0, c1), rg23 = _mm_unpacklo_ps(c2, c3)
            let ba01 = _mm_unpackhi_ps(c0, c1), ba23 = _mm_unpackhi_ps(c2, c3)
            r.storeBytes(of: _mm_movelh_ps(rg01, rg23), toByteOffset: l * 4, as: SIMD4<Float>.self)
            g.storeBytes(of: _mm_movehl_ps(rg23, rg01), toByteOffset: l * 4, as: SIMD4<Float>.self)
            b.storeBytes(of: _mm_movelh_ps(ba01, ba23), toByteOffset: l * 4, as: SIMD4<Float>.self)
            a.storeBytes(of: _mm_movehl_ps(ba23, ba01), toByteOffset: l * 4, as: SIMD4<Float>.self)
        }
        #else
        for l in 0..<Instruction.lanes {
            let (row0, row1, x0, x1, w00, w01, w10, w11) = footprint(l)
            @inline(__always) func channel(_ c: Int) -> Float {
                Float(row0[x0 + c]) * w00 + Float(row0[x1 + c]) * w01 + Float(row1[x0 + c]) * w10 + Float(row1[x1 + c]) * w11
            }
            let cr = channel(0), cg = channel(1), cb = channel(2), ca = channel(3)
            r.storeBytes(of: cr, toByteOffset: l * 4, as: Float.self)
            g.storeBytes(of: cg, toByteOffset: l * 4, as: Float.self)
            b.storeBytes(of: cb, toByteOffset: l * 4, as: Float.self)
            a.storeBytes(of: ca, toByteOffset: l * 4, as: Float.self)
        }
        #endif
    }
}
