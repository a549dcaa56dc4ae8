/// The largest difference between two byte buffers, over the length of the shorter (callers
/// check the lengths themselves). A plain loop over the buffers: this target is compiled without
/// optimization (Package.swift), where `zip(a, b).reduce` costs about 100 ns a byte in generic
/// metadata lookups and a 445 kB frame a twentieth of a second. Also what to expect of two
/// frames' bytes rather than `#expect(a == b)`: when that fails, Swift Testing diffs the two
/// arrays for its message: over ten minutes for two 300 kB frames.
func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.withUnsafeBufferPointer { a in
        b.withUnsafeBufferPointer { b in
            var worst: UInt8 = 0
            for i in 0..<min(a.count, b.count) {
                let x = a[i], y = b[i]
                let d = x > y ? x &- y : y &- x
                if d > worst { worst = d }
            }
            return Int(worst)
        }
    }
}
