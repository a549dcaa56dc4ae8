import FuzzDriver
import MediaGraphCore

/// Time arithmetic on values from files: `MediaTime.rescale` (the muxer's packet timestamps) is
/// checked against the exact definition with 128-bit integers, and `Rational(parsing:)` (rate
/// strings) runs on arbitrary text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTime(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if size < 32 {
        // Short inputs: a rate string.
        _ = Rational(parsing: String(decoding: bytes, as: UTF8.self))
        return 0
    }
    func int64(_ at: Int) -> Int64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(bytes[at + k]) << (8 * k) }
        return Int64(bitPattern: v)
    }
    let ticks = int64(0), num = int64(8), den = int64(16), timescale = int64(24)
    // Rational normalises with abs(): Int64.min is outside its domain, as is a zero denominator.
    guard den != 0, num != .min, den != .min else { return 0 }
    let timeBase = Rational(num, den)
    let result = MediaTime.rescale(ticks, timeBase: timeBase, to: timescale)
    guard timeBase.den > 0, timescale > 0 else {
        if result != nil { fatalError("rescale accepted time base \(timeBase) to timescale \(timescale)") }
        return 0
    }
    // The definition: the result r is the integer nearest ticks × num × timescale / den (halves
    // away from zero), i.e. |r × den − ticks × num × timescale| ≤ den / 2. Checked with 128-bit
    // products, which cannot overflow once the numerator fits.
    let (product, overflow) = (Int128(ticks) * Int128(timeBase.num)).multipliedReportingOverflow(by: Int128(timescale))
    let d = Int128(timeBase.den)
    guard let r = result else {
        // Refusing is right only when the nearest integer is beyond Int64.
        if !overflow, let q = Int64(exactly: product / d), q != .max, q != .min {
            fatalError("rescale(\(ticks), \(timeBase), \(timescale)) refused a result near \(q), which fits 64 bits")
        }
        return 0
    }
    if overflow { fatalError("rescale(\(ticks), \(timeBase), \(timescale)) = \(r), but the exact value is beyond 2^127 / den") }
    let error = Int128(r) * d - product
    let twice = 2 * error.magnitude
    let awayFromZero = (Int128(r) * d).magnitude >= product.magnitude
    guard twice < d.magnitude || (twice == d.magnitude && awayFromZero) else {
        fatalError("rescale(\(ticks), \(timeBase), \(timescale)) = \(r) is not the nearest tick (error \(error)/\(d))")
    }
    return 0
}

runLibFuzzer(fuzzTime)
