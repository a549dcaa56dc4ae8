import MediaGraphCore
import MediaGraphPluginKit

/// `example.posterize`: each colour channel reduced to `levels` evenly spaced values
/// (q = x·levels >> 8, x' = (q·255 + (levels-1)/2) / (levels-1)); alpha kept.
final class Posterize: PluginFilter {
    static let name = "example.posterize"
    static let doc = "Reduces each colour channel to `levels` evenly spaced values; alpha kept."
    static let formats: [PixelFormat] = [.rgba, .bgra]
    static let params = [PluginParam.int("levels", 2...256, default: 4, doc: "values per channel")]

    /// The whole mapping as a table, built once per param change.
    var table = [UInt8](repeating: 0, count: 256)

    init(width: Int, height: Int, format: PixelFormat) {}

    func set(_ name: String, _ value: PluginParamValue) {
        let levels = value.int
        for x in 0..<256 {
            let q = (x * levels) >> 8   // parenthesised: Swift binds >> tighter than *
            table[x] = UInt8((q * 255 + (levels - 1) / 2) / (levels - 1))
        }
    }

    func process(_ src: FramePlanes, _ dst: FramePlanes, pts: Int64) {
        table.withUnsafeBufferPointer { t in
            for y in 0..<src.height {
                let s = src.data0 + y * src.stride0, d = dst.data0 + y * dst.stride0
                for i in stride(from: 0, to: src.width * 4, by: 4) {
                    d[i] = t[Int(s[i])]
                    d[i + 1] = t[Int(s[i + 1])]
                    d[i + 2] = t[Int(s[i + 2])]
                    d[i + 3] = s[i + 3]
                }
            }
        }
    }
}
