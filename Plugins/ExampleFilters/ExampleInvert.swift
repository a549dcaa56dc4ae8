import MediaGraphCore
import MediaGraphKernels
import MediaGraphPluginKit

/// `example.invert`: the built-in `invert` filter's kernel behind the plugin interface, so the
/// benchmark can measure what the interface itself costs per frame.
final class ExampleInvert: PluginFilter {
    static let name = "example.invert"
    static let doc = "Inverts colours as the built-in invert does (255 - x on YUV/gray planes, rgb' = 255 - rgb on RGBA)."
    static let formats = InvertKernel.formats
    let kernel = InvertKernel()

    init(width: Int, height: Int, format: PixelFormat) {}

    func process(_ src: FramePlanes, _ dst: FramePlanes, pts: Int64) throws {
        try kernel.run(source: src, destination: dst, threads: 0)
    }
}
