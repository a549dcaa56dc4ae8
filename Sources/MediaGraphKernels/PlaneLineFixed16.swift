/// A `PlaneLine` in the 16-bit arithmetic of the AVX2 row loop (`planeLineRowAVX2`), and the
/// bytes that arithmetic gives (`output`, `table`): what a fused run of YUV colour filters writes
/// on every CPU (`PlaneLines.fixedPointCurves`), and what `PlaneCurvesKernel` runs in place of a
/// stage's own table when it gives exactly that table (`matching`).
///
/// Per sample v: p = round(v·128·multiplier / 2^15) (vpmulhrsw), s = p + addend saturated to an
/// Int16 (vpaddsw), q = s >> shift (vpsraw), then clamped to 0…255 (vpackuswb) and to low…high
/// (vpmaxub, vpminub). With multiplier = gain·2^(8+shift) and addend = (intercept + ½)·2^shift,
/// q is ⌊gain·v + intercept + ½⌋ up to 1.5·2^−shift before the floor; `shift` is the largest
/// (≤ 7) for which both fit an Int16. Saturation only ever pushes a value further past the clamp
/// it is already beyond, so it never changes a result.
public struct PlaneLineFixed16: Equatable, Sendable {
    public let multiplier: Int16, addend: Int16
    public let shift: Int32
    public let low: UInt8, high: UInt8

    /// nil for a gain too large for any shift (|gain| ≥ 128) or a value that is not finite.
    public init?(_ line: PlaneLine) {
        guard line.gain.isFinite, line.intercept.isFinite, line.low.isFinite, line.high.isFinite else { return nil }
        low = UInt8(min(max((line.low + 0.5).rounded(.down), 0), 255))
        high = UInt8(min(max((line.high + 0.5).rounded(.down), Double(low)), 255))
        let gain = line.high - line.low < 1e-9 ? 0 : line.gain
        for shift in stride(from: 7, through: 0, by: -1) {
            let scale = Double(1 << shift)
            let m = (gain * 256 * scale).rounded(), a = ((line.intercept + 0.5) * scale).rounded()
            guard abs(m) <= 32767, abs(a) <= 32767 else { continue }
            multiplier = Int16(m)
            addend = Int16(a)
            self.shift = Int32(shift)
            return
        }
        return nil
    }

    /// The form of `line` that gives exactly `table` (a stage's own table, rounded to nearest
    /// even), if one does: values near a half decide it, so the multipliers and addends next to
    /// the nearest are tried too.
    public static func matching(_ line: PlaneLine, table: [UInt8]) -> PlaneLineFixed16? {
        guard let fixed = PlaneLineFixed16(line) else { return nil }
        for m in [0, -1, 1] {
            for a in [0, -1, 1, -2, 2, -3, 3] {
                let multiplier = Int(fixed.multiplier) + m, addend = Int(fixed.addend) + a
                guard abs(multiplier) <= 32767, abs(addend) <= 32767 else { continue }
                let candidate = PlaneLineFixed16(multiplier: Int16(multiplier), addend: Int16(addend), shift: fixed.shift,
                                                 low: fixed.low, high: fixed.high)
                if candidate.table == table { return candidate }
            }
        }
        return nil
    }

    private init(multiplier: Int16, addend: Int16, shift: Int32, low: UInt8, high: UInt8) {
        self.multiplier = multiplier
        self.addend = addend
        self.shift = shift
        self.low = low
        self.high = high
    }

    /// The byte for input `v`, as the vector loop computes it.
    @inline(__always)
    public func output(_ v: UInt8) -> UInt8 {
        let product = (Int32(v) * 128 * Int32(multiplier) + 16384) >> 15
        let sum = min(max(product + Int32(addend), -32768), 32767)
        let byte = UInt8(min(max(sum >> shift, 0), 255))
        return min(max(byte, low), high)
    }

    /// `output` for every byte value.
    public var table: [UInt8] { (0..<256).map { output(UInt8($0)) } }
}
