import MediaGraphCore
import MediaGraphPluginKit

/// `example.average`: two inputs (version 2 of the plugin interface, written with `PluginMixer`)
/// averaged byte by byte, (a + b) / 2 rounded down, on every plane — ffmpeg's
/// `blend=all_mode=average`. The graph brings `in1` to `in`'s size and format; while one input
/// has no frame the other is copied.
final class ExampleAverage: PluginMixer {
    static let name = "example.average"
    static let doc = "Averages two inputs byte by byte, (a + b) / 2 rounded down (ffmpeg's blend=all_mode=average)."
    static let formats: [PixelFormat] = [.yuv420p, .yuv444p, .gray, .rgba, .bgra]
    static let inputNames = ["in", "in1"]
    static let sameInputSize = true

    init(inputs: [PluginVideoFormat]) {}

    func process(_ inputs: PluginInputFrames, _ dst: FramePlanes, pts: Int64) throws {
        let a = inputs[0] ?? inputs[1], b = inputs[1] ?? inputs[0]
        for p in 0..<dst.planeCount {
            let (w, h) = dst.planeSize(p)
            let bytes = w * dst.format.bytesPerPixel(plane: p)
            let d = dst.data(p), ds = dst.stride(p)
            guard let a, let b else {
                for y in 0..<h { (d + y * ds).initialize(repeating: 0, count: bytes) }
                continue
            }
            let pa = a.data(p), sa = a.stride(p), pb = b.data(p), sb = b.stride(p)
            for y in 0..<h {
                let ra = pa + y * sa, rb = pb + y * sb, rd = d + y * ds
                for x in 0..<bytes { rd[x] = UInt8((UInt16(ra[x]) + UInt16(rb[x])) >> 1) }
            }
        }
    }
}
