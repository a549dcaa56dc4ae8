/// The overlay's row loops (portable; the AVX2 ones in MediaGraphKernelsAVX2 give the same
/// bytes). `div255` is ffmpeg's FAST_DIV255: (x + 128)·257 >> 16, x/255 rounded to nearest
/// for 0 ≤ x ≤ 255·255, and floor-rounded the same way for the negative values of the
/// premultiplied chroma formula. Wrapping arithmetic: no overflow traps in the loops, so LLVM
/// vectorizes them.
enum OverlayRows {
    @inline(__always)
    static func div255(_ x: Int32) -> Int32 { ((x &+ 128) &* 257) >> 16 }

    /// d = (d·(255−α) + s·α) / 255: straight alpha, one plane.
    @inline(__always)
    static func straight(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count {
            let al = Int32(a[i])
            d[i] = UInt8(truncatingIfNeeded: div255(Int32(d[i]) &* (255 &- al) &+ Int32(s[i]) &* al))
        }
    }

    /// d = min(d·(255−α)/255 + s, 255): premultiplied luma (and R, G, B).
    @inline(__always)
    static func premultiplied(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count {
            let v = div255(Int32(d[i]) &* (255 &- Int32(a[i]))) &+ Int32(s[i])
            d[i] = UInt8(truncatingIfNeeded: min(v, 255))
        }
    }

    /// d = (d−128)·(255−α)/255 + s, clamped to a byte: premultiplied chroma around 128.
    @inline(__always)
    static func premultipliedChroma(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ count: Int) {
        for i in 0..<count {
            let v = div255((Int32(d[i]) &- 128) &* (255 &- Int32(a[i]))) &+ Int32(s[i])
            d[i] = UInt8(truncatingIfNeeded: min(max(v, 0), 255))
        }
    }

    /// ffmpeg's straight alpha of an overlay pixel over a main pixel that has its own alpha α_d:
    /// α·255² / (255(α + α_d) − α·α_d) (vf_overlay.c's UNPREMULTIPLY_ALPHA).
    @inline(__always)
    static func mainAlphaAdjusted(_ a: Int32, _ da: Int32) -> Int32 {
        guard a != 0 && a != 255 && da != 255 else { return a }
        return (a << 16 &- a << 9 &+ a) / (((a &+ da) << 8) &- (a &+ da) &- da &* a)
    }

    /// RGBA over RGBA (same byte order, alpha in byte 3), pixel by pixel as ffmpeg's packed
    /// path: α = 0 keeps, α = 255 copies, otherwise the formula; the main's alpha composes
    /// (α_d += (255 − α_d)·α/255).
    @inline(__always)
    static func packed(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ count: Int, premultiplied: Bool) {
        for i in 0..<count {
            let p = d + 4 * i, q = s + 4 * i
            let sa = Int32(q[3]), da = Int32(p[3])
            let a = mainAlphaAdjusted(sa, da)
            if a == 0 { continue }
            if a == 255 {
                p[0] = q[0]; p[1] = q[1]; p[2] = q[2]
                p[3] = q[3]
                continue
            }
            for c in 0..<3 {
                let v = premultiplied ? min(div255(Int32(p[c]) &* (255 &- a)) &+ Int32(q[c]), 255)
                                      : div255(Int32(p[c]) &* (255 &- a) &+ Int32(q[c]) &* a)
                p[c] = UInt8(truncatingIfNeeded: v)
            }
            p[3] = UInt8(truncatingIfNeeded: da &+ div255((255 &- da) &* sa))
        }
    }

    /// RGBA over BGRA or the reverse: as `packed` with red and blue of the overlay swapped.
    @inline(__always)
    static func packedSwapped(_ d: UnsafeMutablePointer<UInt8>, _ s: UnsafePointer<UInt8>, _ count: Int, premultiplied: Bool) {
        for i in 0..<count {
            let p = d + 4 * i, q = s + 4 * i
            let sa = Int32(q[3]), da = Int32(p[3])
            let a = mainAlphaAdjusted(sa, da)
            if a == 0 { continue }
            let src = (Int32(q[2]), Int32(q[1]), Int32(q[0]))
            if a == 255 {
                p[0] = UInt8(truncatingIfNeeded: src.0); p[1] = UInt8(truncatingIfNeeded: src.1); p[2] = UInt8(truncatingIfNeeded: src.2)
                p[3] = q[3]
                continue
            }
            for c in 0..<3 {
                let sc = c == 0 ? src.0 : c == 1 ? src.1 : src.2
                let v = premultiplied ? min(div255(Int32(p[c]) &* (255 &- a)) &+ sc, 255)
                                      : div255(Int32(p[c]) &* (255 &- a) &+ sc &* a)
                p[c] = UInt8(truncatingIfNeeded: v)
            }
            p[3] = UInt8(truncatingIfNeeded: da &+ div255((255 &- da) &* sa))
        }
    }
}
