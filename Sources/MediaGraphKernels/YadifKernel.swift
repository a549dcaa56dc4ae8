import MediaGraphCore

/// What one yadif picture is built from: the frames before, at and after it, which rows to
/// rebuild, and where the other field comes from.
public struct YadifField {
    /// Rows whose parity differs from this (y & 1 != keptRowParity) are rebuilt; rows of this
    /// parity are copied from `cur`. 0 keeps the top field (even rows), 1 the bottom field.
    public var keptRowParity: Int
    /// true for the picture at the time of `cur`'s first field: the missing rows at that time
    /// lie between their own samples in `prev` and `cur`. false for the time of the second
    /// field: between `cur` and `next`.
    public var missingFieldIsEarlier: Bool
    /// ffmpeg's modes 0 and 1: the temporal limit also looks two rows up and down (b and f).
    /// false is modes 2 and 3 ("nospatial").
    public var spatialCheck: Bool

    public init(keptRowParity: Int, missingFieldIsEarlier: Bool, spatialCheck: Bool) {
        self.keptRowParity = keptRowParity & 1
        self.missingFieldIsEarlier = missingFieldIsEarlier
        self.spatialCheck = spatialCheck
    }
}

/// ffmpeg 5.1's yadif ("yet another deinterlacing filter") on planar 8-bit and 10-bit frames,
/// the same bytes as its C and SIMD code:
///
/// - rows of the kept field are copied from the current frame;
/// - each missing pixel starts from the mean of the pixels above and below (c, e), then tries
///   the four diagonals one and two pixels either way (the two-pixel one only when the one-pixel
///   one on its side won), keeping the mean along the direction of least difference;
/// - that prediction is clamped to the temporal mean d of the missing field in the neighbouring
///   frames, within a margin of the largest temporal change seen around it (and, in modes 0/1,
///   widened or narrowed by the field two rows up and down, except on the second and
///   second-to-last row, where those rows would lie outside the picture);
/// - the first three and last three columns skip the directional search; the first row uses
///   the row below as its row above, the last row the row above as its row below.
///
/// Rows are split into bands run on several threads; no allocation, no closures per pixel.
public enum YadifKernel {
    /// Builds one output picture into `dst` from three frames of the same format and size
    /// (strides may differ). `prev` and `next` may be the same memory as `cur`.
    public static func run(prev: FramePlanes, cur: FramePlanes, next: FramePlanes, dst: FramePlanes,
                           field: YadifField, threads: Int) {
        let wide = cur.format.bitDepth > 8
        for p in 0..<cur.planeCount {
            let (w, h) = cur.planeSize(p)
            let planes = PlaneSet(prev: prev, cur: cur, next: next, dst: dst, plane: p)
            RowBands.run(rows: h, threads: threads, minRows: 16) { rows in
                if wide {
                    planes.rows(rows, width: w, height: h, field: field, UInt16.self)
                } else {
                    planes.rows(rows, width: w, height: h, field: field, UInt8.self)
                }
            }
        }
    }
}

/// One plane of the four frames, as raw pointers and byte strides.
struct PlaneSet {
    let prev: UnsafeMutablePointer<UInt8>, cur: UnsafeMutablePointer<UInt8>, next: UnsafeMutablePointer<UInt8>
    let dst: UnsafeMutablePointer<UInt8>
    let prevStride: Int, curStride: Int, nextStride: Int, dstStride: Int
    let rowBytes: Int

    init(prev: FramePlanes, cur: FramePlanes, next: FramePlanes, dst: FramePlanes, plane p: Int) {
        self.prev = prev.data(p); self.cur = cur.data(p); self.next = next.data(p); self.dst = dst.data(p)
        prevStride = prev.stride(p); curStride = cur.stride(p); nextStride = next.stride(p); dstStride = dst.stride(p)
        rowBytes = cur.rowBytes(p)
    }

    @inline(__always)
    func rows<T: FixedWidthInteger & UnsignedInteger>(_ rows: Range<Int>, width w: Int, height h: Int, field: YadifField, _: T.Type) {
        for y in rows {
            // a plane of one row has no other row to build from (the node refuses pictures
            // under 3 rows; a plane this short is kept as it is rather than read out of bounds)
            if (y & 1) == field.keptRowParity || h < 2 {
                (dst + y * dstStride).update(from: cur + y * curStride, count: rowBytes)
                continue
            }
            // the neighbouring rows; at the top and bottom the one that exists stands for both
            let up = y > 0 ? y - 1 : y + 1
            let down = y + 1 < h ? y + 1 : y - 1
            // two rows further out, read only where both exist (never on rows 1 and h - 2)
            let outer = field.spatialCheck && y != 1 && y + 2 != h
            let up2 = outer ? 2 * up - y : y, down2 = outer ? 2 * down - y : y
            // the missing field's own rows in the frames either side of it in time
            let earlier = field.missingFieldIsEarlier
            let (p2, p2Stride) = earlier ? (prev, prevStride) : (cur, curStride)
            let (n2, n2Stride) = earlier ? (cur, curStride) : (next, nextStride)
            func row(_ base: UnsafeMutablePointer<UInt8>, _ stride: Int, _ r: Int) -> UnsafePointer<T> {
                UnsafeRawPointer(base + r * stride).assumingMemoryBound(to: T.self)
            }
            let lines = YadifLines(
                curUp: row(cur, curStride, up), curDown: row(cur, curStride, down),
                prevUp: row(prev, prevStride, up), prevDown: row(prev, prevStride, down),
                nextUp: row(next, nextStride, up), nextDown: row(next, nextStride, down),
                prev2: row(p2, p2Stride, y), next2: row(n2, n2Stride, y),
                prev2Up: row(p2, p2Stride, up2), next2Up: row(n2, n2Stride, up2),
                prev2Down: row(p2, p2Stride, down2), next2Down: row(n2, n2Stride, down2))
            let out = UnsafeMutableRawPointer(dst + y * dstStride).assumingMemoryBound(to: T.self)
            // the directional search reads three pixels either side: not on the outer columns
            // (a chroma plane may be narrower than 3 pixels: then every column is an outer one)
            let left = 0..<min(3, w), inner = 3..<max(3, w - 3), right = min(w, max(3, w - 3))..<w
            if outer {
                lines.filter(out, left, directional: false, outer: true)
                lines.filterInner(out, inner, outer: true)
                lines.filter(out, right, directional: false, outer: true)
            } else {
                lines.filter(out, left, directional: false, outer: false)
                lines.filterInner(out, inner, outer: false)
                lines.filter(out, right, directional: false, outer: false)
            }
        }
    }
}

/// The rows one missing row is computed from.
struct YadifLines<T: FixedWidthInteger & UnsignedInteger> {
    let curUp: UnsafePointer<T>, curDown: UnsafePointer<T>
    let prevUp: UnsafePointer<T>, prevDown: UnsafePointer<T>
    let nextUp: UnsafePointer<T>, nextDown: UnsafePointer<T>
    let prev2: UnsafePointer<T>, next2: UnsafePointer<T>
    let prev2Up: UnsafePointer<T>, next2Up: UnsafePointer<T>
    let prev2Down: UnsafePointer<T>, next2Down: UnsafePointer<T>

    @inline(__always) static func v(_ p: UnsafePointer<T>, _ x: Int) -> Int32 { Int32(truncatingIfNeeded: p[x]) }
    @inline(__always) static func ad(_ a: Int32, _ b: Int32) -> Int32 { let t = a &- b; return t < 0 ? 0 &- t : t }

    /// Pixels `xs` of the missing row. `directional` and `outer` are constants at each call, so
    /// each of the loops compiles without the branches it does not take.
    @inline(__always)
    func filter(_ out: UnsafeMutablePointer<T>, _ xs: Range<Int>, directional: Bool, outer: Bool) {
        let cu = curUp, cd = curDown
        for x in xs {
            let c = Self.v(cu, x), e = Self.v(cd, x)
            let a2 = Self.v(prev2, x), b2 = Self.v(next2, x)
            let d = (a2 &+ b2) >> 1
            let t0 = Self.ad(a2, b2) >> 1
            let t1 = (Self.ad(Self.v(prevUp, x), c) &+ Self.ad(Self.v(prevDown, x), e)) >> 1
            let t2 = (Self.ad(Self.v(nextUp, x), c) &+ Self.ad(Self.v(nextDown, x), e)) >> 1
            var diff = max(t0, max(t1, t2))
            var pred = (c &+ e) >> 1
            if directional {
                // the vertical line's score, less one so a diagonal must be strictly better
                var best = Self.ad(Self.v(cu, x - 1), Self.v(cd, x - 1)) &+ Self.ad(c, e)
                    &+ Self.ad(Self.v(cu, x + 1), Self.v(cd, x + 1)) &- 1
                // leaning left: up-left to down-right, one then two pixels
                let l1 = Self.ad(Self.v(cu, x - 2), e) &+ Self.ad(Self.v(cu, x - 1), Self.v(cd, x + 1))
                    &+ Self.ad(c, Self.v(cd, x + 2))
                if l1 < best {
                    best = l1
                    pred = (Self.v(cu, x - 1) &+ Self.v(cd, x + 1)) >> 1
                    let l2 = Self.ad(Self.v(cu, x - 3), Self.v(cd, x + 1)) &+ Self.ad(Self.v(cu, x - 2), Self.v(cd, x + 2))
                        &+ Self.ad(Self.v(cu, x - 1), Self.v(cd, x + 3))
                    if l2 < best {
                        best = l2
                        pred = (Self.v(cu, x - 2) &+ Self.v(cd, x + 2)) >> 1
                    }
                }
                // leaning right
                let r1 = Self.ad(c, Self.v(cd, x - 2)) &+ Self.ad(Self.v(cu, x + 1), Self.v(cd, x - 1))
                    &+ Self.ad(Self.v(cu, x + 2), e)
                if r1 < best {
                    best = r1
                    pred = (Self.v(cu, x + 1) &+ Self.v(cd, x - 1)) >> 1
                    let r2 = Self.ad(Self.v(cu, x + 1), Self.v(cd, x - 3)) &+ Self.ad(Self.v(cu, x + 2), Self.v(cd, x - 2))
                        &+ Self.ad(Self.v(cu, x + 3), Self.v(cd, x - 1))
                    if r2 < best {
                        pred = (Self.v(cu, x + 2) &+ Self.v(cd, x - 2)) >> 1
                    }
                }
            }
            if outer {
                let b = (Self.v(prev2Up, x) &+ Self.v(next2Up, x)) >> 1
                let f = (Self.v(prev2Down, x) &+ Self.v(next2Down, x)) >> 1
                let hi = max(d &- e, max(d &- c, min(b &- c, f &- e)))
                let lo = min(d &- e, min(d &- c, max(b &- c, f &- e)))
                diff = max(diff, max(lo, 0 &- hi))
            }
            if pred > d &+ diff {
                pred = d &+ diff
            } else if pred < d &- diff {
                pred = d &- diff
            }
            out[x] = T(truncatingIfNeeded: pred)
        }
    }

    typealias V = SIMD8<Int16>

    /// Eight samples of row `p` from `x`, split by `L` (see `LaneSplit`).
    @inline(__always) static func load<L: LaneSplit>(_ p: UnsafePointer<T>, _ x: Int, _: L.Type) -> V {
        L.lanes(UnsafeRawPointer(p + x).loadUnaligned(as: V.self))
    }
    @inline(__always) static func vmax(_ a: V, _ b: V) -> V { a.replacing(with: b, where: a .< b) }
    @inline(__always) static func vmin(_ a: V, _ b: V) -> V { a.replacing(with: b, where: b .< a) }
    @inline(__always) static func ad(_ a: V, _ b: V) -> V { vmax(a &- b, b &- a) }
    /// Half of a lane that is never negative (a sum of samples or of distances): a logical shift,
    /// which the compiler keeps in SIMD registers where it splits the arithmetic one.
    @inline(__always) static func half(_ v: V) -> V {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt16>.self) &>> 1, to: V.self)
    }
    @inline(__always) static func mean(_ a: V, _ b: V) -> V { half(a &+ b) }

    /// The columns with three pixels either side: the same arithmetic as `filter` with
    /// `directional: true`, on SIMD lanes of 16 bits (sums stay under 3 · 1023), each choice a
    /// select; the columns left over go through `filter`.
    @inline(__always)
    func filterInner(_ out: UnsafeMutablePointer<T>, _ xs: Range<Int>, outer: Bool) {
        var x = xs.lowerBound
        if T.self == UInt8.self {
            while x + 16 <= xs.upperBound {
                let even = pass(x, LowBytes.self, outer: outer), odd = pass(x, HighBytes.self, outer: outer)
                UnsafeMutableRawPointer(out + x).storeBytes(of: even | (odd &<< 8), as: V.self)
                x += 16
            }
        } else {
            while x + 8 <= xs.upperBound {
                UnsafeMutableRawPointer(out + x).storeBytes(of: pass(x, Words.self, outer: outer), as: V.self)
                x += 8
            }
        }
        filter(out, x..<xs.upperBound, directional: true, outer: outer)
    }

    @inline(__always)
    func pass<L: LaneSplit>(_ x: Int, _ k: L.Type, outer: Bool) -> V {
        let cu = curUp, cd = curDown
        let c = Self.load(cu, x, k), e = Self.load(cd, x, k)
        let a2 = Self.load(prev2, x, k), b2 = Self.load(next2, x, k)
        let d = Self.mean(a2, b2)
        let t0 = Self.half(Self.ad(a2, b2))
        let t1 = Self.half(Self.ad(Self.load(prevUp, x, k), c) &+ Self.ad(Self.load(prevDown, x, k), e))
        let t2 = Self.half(Self.ad(Self.load(nextUp, x, k), c) &+ Self.ad(Self.load(nextDown, x, k), e))
        var diff = Self.vmax(t0, Self.vmax(t1, t2))
        let um3 = Self.load(cu, x - 3, k), um2 = Self.load(cu, x - 2, k), um1 = Self.load(cu, x - 1, k)
        let up1 = Self.load(cu, x + 1, k), up2 = Self.load(cu, x + 2, k), up3 = Self.load(cu, x + 3, k)
        let dm3 = Self.load(cd, x - 3, k), dm2 = Self.load(cd, x - 2, k), dm1 = Self.load(cd, x - 1, k)
        let dp1 = Self.load(cd, x + 1, k), dp2 = Self.load(cd, x + 2, k), dp3 = Self.load(cd, x + 3, k)
        var best = Self.ad(um1, dm1) &+ Self.ad(c, e) &+ Self.ad(up1, dp1) &- 1
        var pred = Self.mean(c, e)
        let l1 = Self.ad(um2, e) &+ Self.ad(um1, dp1) &+ Self.ad(c, dp2)
        let takeL1 = l1 .< best
        best.replace(with: l1, where: takeL1)
        pred.replace(with: Self.mean(um1, dp1), where: takeL1)
        let l2 = Self.ad(um3, dp1) &+ Self.ad(um2, dp2) &+ Self.ad(um1, dp3)
        let takeL2 = takeL1 .& (l2 .< best)
        best.replace(with: l2, where: takeL2)
        pred.replace(with: Self.mean(um2, dp2), where: takeL2)
        let r1 = Self.ad(c, dm2) &+ Self.ad(up1, dm1) &+ Self.ad(up2, e)
        let takeR1 = r1 .< best
        best.replace(with: r1, where: takeR1)
        pred.replace(with: Self.mean(up1, dm1), where: takeR1)
        let r2 = Self.ad(up1, dm3) &+ Self.ad(up2, dm2) &+ Self.ad(up3, dm1)
        let takeR2 = takeR1 .& (r2 .< best)
        pred.replace(with: Self.mean(up2, dm2), where: takeR2)
        if outer {
            let b = Self.mean(Self.load(prev2Up, x, k), Self.load(next2Up, x, k))
            let f = Self.mean(Self.load(prev2Down, x, k), Self.load(next2Down, x, k))
            let de = d &- e, dc = d &- c, bc = b &- c, fe = f &- e
            let hi = Self.vmax(de, Self.vmax(dc, Self.vmin(bc, fe)))
            let lo = Self.vmin(de, Self.vmin(dc, Self.vmax(bc, fe)))
            diff = Self.vmax(diff, Self.vmax(lo, V.zero &- hi))
        }
        // diff is never negative, so the two limits are in order: a clamp
        return Self.vmin(Self.vmax(pred, d &- diff), d &+ diff)
    }
}

/// How the eight 16-bit words of a load become eight samples. 8-bit rows are read 16 bytes at a
/// time and filtered in two passes, the low bytes (even pixels from `x`) and the high bytes (odd
/// pixels): every operand of a pass splits the same way and the arithmetic is lane by lane, so
/// each pass is the filter on every other pixel. 10-bit rows take eight samples as they are.
/// Types, not values, so each pass compiles to its own loop body.
protocol LaneSplit { static func lanes(_ v: SIMD8<Int16>) -> SIMD8<Int16> }
enum LowBytes: LaneSplit { @inline(__always) static func lanes(_ v: SIMD8<Int16>) -> SIMD8<Int16> { v & 0x00FF } }
enum HighBytes: LaneSplit {
    @inline(__always) static func lanes(_ v: SIMD8<Int16>) -> SIMD8<Int16> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt16>.self) &>> 8, to: SIMD8<Int16>.self)
    }
}
enum Words: LaneSplit { @inline(__always) static func lanes(_ v: SIMD8<Int16>) -> SIMD8<Int16> { v } }
