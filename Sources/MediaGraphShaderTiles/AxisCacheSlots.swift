import CMediaGraphShaderTiles

/// Assigns the tile loop's axis cache to `texture` instructions (`MG_AXIS_*` in
/// CMediaGraphShaderTiles.h). A bilinear sample splits into a horizontal part (coordinate to
/// texel columns and weights) and a vertical one; samples at the same coordinate value share
/// them. GPUImage's Kuwahara of radius 3 takes 49 samples at 7 distinct u and 7 distinct v, so
/// 42 of its 49 horizontal and vertical parts come from the cache. Keys are SSA values, which
/// never change within a tile, so a slot holds its key's part until the slot is given to
/// another key (least recently used first); the instructions run in order, without branches.
package struct AxisCacheSlots {
    /// What a part depends on: the coordinate's SSA value and the input (its size).
    package struct Key: Hashable {
        package var value: Int32
        package var input: UInt8
        package init(value: Int32, input: UInt8) { self.value = value; self.input = input }
    }

    private var horizontal = Slots()
    private var vertical = Slots()

    package init() {}

    /// The `c` field of a `texture` sampling at (u, v) of `input`.
    package mutating func code(u: Int32, v: Int32, input: UInt8) -> Int32 {
        let x = horizontal.slot(for: Key(value: u, input: input))
        let y = vertical.slot(for: Key(value: v, input: input))
        return Int32(x.slot) | (x.ready ? Int32(MG_AXIS_X_READY) : 0)
            | Int32(y.slot) << 8 | (y.ready ? Int32(MG_AXIS_Y_READY) : 0)
    }

    private struct Slots {
        var owners = [Key?](repeating: nil, count: Int(MG_AXIS_SLOTS))
        var lastUse = [Int](repeating: -1, count: Int(MG_AXIS_SLOTS))
        var clock = 0

        mutating func slot(for key: Key) -> (slot: Int, ready: Bool) {
            clock += 1
            if let s = owners.firstIndex(of: key) {
                lastUse[s] = clock
                return (s, true)
            }
            let s = lastUse.indices.min { lastUse[$0] < lastUse[$1] }!
            owners[s] = key
            lastUse[s] = clock
            return (s, false)
        }
    }
}
