import MediaGraphCore
import MediaGraphKernelsAVX2

/// ffmpeg 5.1's `unsharp` on one 8-bit plane, the same bytes: a binomial blur of `sizeX` × `sizeY`
/// (odd, 3…23: weights C(2s, k) with s = size/2, edges repeated), then
/// `out = in + ((in − blur) · amount) >> 16` clipped, with `amount` = amount·65536 truncated and
/// `blur = (sum + half) >> scalebits`. A positive amount sharpens, a negative one blurs.
///
/// ffmpeg sums in a finite-state machine of 32-bit pairwise sums; here the same sum is two
/// separable passes of 32-bit multiply-adds (equal modulo 2³², which is what ffmpeg keeps: its
/// 13×15 and larger masks wrap), rows in bands across cores. The horizontal sums of a plane live
/// in `scratch`, kept by the caller from frame to frame.
public struct UnsharpKernel: Sendable {
    public let sizeX: Int, sizeY: Int
    /// amount · 65536, truncated toward zero (ffmpeg's conversion).
    public let amount: Int32
    let weightsX: [UInt32], weightsY: [UInt32]
    let scalebits: UInt32

    /// The largest sum of steps ffmpeg accepts: (sizeX/2 + sizeY/2)·2 ≤ 25.
    public static let maxScalebits = 25

    public init(sizeX: Int, sizeY: Int, amount: Double) {
        self.sizeX = sizeX
        self.sizeY = sizeY
        self.amount = Int32(amount * 65536)
        weightsX = Self.binomial(sizeX / 2 * 2)
        weightsY = Self.binomial(sizeY / 2 * 2)
        scalebits = UInt32((sizeX / 2 + sizeY / 2) * 2)
    }

    /// Row n of Pascal's triangle.
    static func binomial(_ n: Int) -> [UInt32] {
        var row: [UInt32] = [1]
        for _ in 0..<n { row = zip(row + [0], [0] + row).map { $0 &+ $1 } }
        return row
    }

    /// Filters plane `p` of `source` into `destination` (may be the same planes); `scratch` must
    /// hold the plane's width × height 32-bit sums.
    public func run(plane p: Int, source: FramePlanes, destination: FramePlanes,
                    scratch: UnsafeMutablePointer<UInt32>, threads: Int = 0) {
        let (w, h) = source.planeSize(p)
        let src = source.data(p), dst = destination.data(p)
        let ss = source.stride(p), ds = destination.stride(p)
        guard amount != 0 else {
            if src != dst { for y in 0..<h { (dst + y * ds).update(from: src + y * ss, count: w) } }
            return
        }
        // Up to 5x5 (scalebits 8) every sum fits 16 bits: twice the lanes per instruction.
        if scalebits <= 8 {
            scratch.withMemoryRebound(to: UInt16.self, capacity: w * h) {
                passes(UInt16.self, w, h, src, ss, dst, ds, $0, threads)
            }
        } else {
            passes(UInt32.self, w, h, src, ss, dst, ds, scratch, threads)
        }
    }

    @inline(__always)
    func passes<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ w: Int, _ h: Int,
                                                       _ src: UnsafeMutablePointer<UInt8>, _ ss: Int,
                                                       _ dst: UnsafeMutablePointer<UInt8>, _ ds: Int,
                                                       _ scratch: UnsafeMutablePointer<T>, _ threads: Int) {
        let rx = sizeX / 2, ry = sizeY / 2
        let wx = weightsX.map { T(truncatingIfNeeded: $0) }, wy = weightsY.map { T(truncatingIfNeeded: $0) }
        let half = T(truncatingIfNeeded: 1 << (scalebits - 1)), shift = T(truncatingIfNeeded: scalebits), amount = amount
        let avx2 = VectorPath.detected == .avx2 && CPUFeatures.hasAVX2FMA, scalebits = scalebits
        // horizontal binomial sums, edges repeated; taps outer, pixels inner (vectorizes)
        RowBands.run(rows: h, threads: threads) { band in
            wx.withUnsafeBufferPointer { k in
                for y in band {
                    let row = src + y * ss, out = scratch + y * w
                    let inner = max(0, w - 2 * rx)   // pixels whose taps are all inside
                    func edge(_ x: Int) {
                        var s: T = 0
                        for t in 0...(2 * rx) { s &+= k[t] &* T(row[min(max(x + t - rx, 0), w - 1)]) }
                        out[x] = s
                    }
                    for x in 0..<min(rx, w) { edge(x) }
                    for x in max(rx, rx + inner)..<w { edge(x) }
                    guard inner > 0 else { continue }
                    let o = out + rx
                    var done = 0
                    if avx2, T.self == UInt16.self {
                        done = o.withMemoryRebound(to: UInt16.self, capacity: inner) { o16 in
                            k.withMemoryRebound(to: UInt16.self) { unsharpHorizontalSumsAVX2(row, o16, inner, $0.baseAddress!, 2 * rx + 1) }
                        }
                    } else if avx2, T.self == UInt32.self {
                        done = o.withMemoryRebound(to: UInt32.self, capacity: inner) { o32 in
                            k.withMemoryRebound(to: UInt32.self) { unsharpHorizontalSums32AVX2(row, o32, inner, $0.baseAddress!, 2 * rx + 1) }
                        }
                    }
                    let k0 = k[0]
                    for x in done..<inner { o[x] = k0 &* T(row[x]) }
                    for t in 1...(2 * rx) {
                        let kt = k[t], r = row + t
                        for x in done..<inner { o[x] &+= kt &* T(r[x]) }
                    }
                }
            }
        }
        // vertical sums of those into a row, then the unsharp mask
        RowBands.run(rows: h, threads: threads) { band in
            withUnsafeTemporaryAllocation(of: T.self, capacity: w) { acc in
                let a = acc.baseAddress!
                wy.withUnsafeBufferPointer { k in
                    for y in band {
                        let inRow = src + y * ss, outRow = dst + y * ds
                        var done = 0
                        if avx2 {
                            // the rows of horizontal sums this output row reads, edges repeated
                            done = withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 2 * ry + 1) { rows in
                                for t in 0...(2 * ry) { rows[t] = UnsafeRawPointer(scratch + min(max(y + t - ry, 0), h - 1) * w) }
                                let taps = 2 * ry + 1, raw = UnsafeRawPointer(rows.baseAddress!)
                                if T.self == UInt16.self {
                                    return k.withMemoryRebound(to: UInt16.self) {
                                        unsharpMaskRowAVX2(raw.assumingMemoryBound(to: UnsafePointer<UInt16>?.self), taps, $0.baseAddress!,
                                                           inRow, outRow, w, amount, Int32(scalebits))
                                    }
                                }
                                return k.withMemoryRebound(to: UInt32.self) {
                                    unsharpMaskRow32AVX2(raw.assumingMemoryBound(to: UnsafePointer<UInt32>?.self), taps, $0.baseAddress!,
                                                         inRow, outRow, w, amount, Int32(scalebits))
                                }
                            }
                        }
                        if done == w { continue }
                        let first = scratch + min(max(y - ry, 0), h - 1) * w
                        let k0 = k[0]
                        for x in done..<w { a[x] = k0 &* first[x] }
                        for t in 1...(2 * ry) {
                            let kt = k[t], r = scratch + min(max(y + t - ry, 0), h - 1) * w
                            for x in done..<w { a[x] &+= kt &* r[x] }
                        }
                        for x in done..<w {
                            let v = Int32(inRow[x])
                            let blur = Int32(truncatingIfNeeded: (a[x] &+ half) >> shift)
                            outRow[x] = UInt8(clamping: v &+ (((v &- blur) &* amount) >> 16))
                        }
                    }
                }
            }
        }
    }
}
