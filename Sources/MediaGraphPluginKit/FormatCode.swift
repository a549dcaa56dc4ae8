import CMediaGraphPlugin
import MediaGraphCore

/// Pixel format codes and frame structs of the C interface, seen from a plugin.
enum FormatCode {
    static let order: [(PixelFormat, mg_pixel_format)] = [
        (.yuv420p, MG_PIXEL_YUV420P), (.yuv422p, MG_PIXEL_YUV422P), (.yuv444p, MG_PIXEL_YUV444P),
        (.rgba, MG_PIXEL_RGBA), (.bgra, MG_PIXEL_BGRA), (.gray, MG_PIXEL_GRAY),
    ]

    static func code(_ f: PixelFormat) -> Int32 { Int32(order.first { $0.0 == f }!.1.rawValue) }
    static func format(_ c: Int32) -> PixelFormat? { order.first { Int32($0.1.rawValue) == c }?.0 }

    /// The planes a host frame describes, or nil when the description is inconsistent.
    static func planes(_ f: mg_frame) -> FramePlanes? {
        guard let pf = format(f.format), f.width > 0, f.height > 0, Int(f.plane_count) == pf.planeCount,
              let d0 = f.planes.0 else { return nil }
        if pf.planeCount == 1 {
            return FramePlanes(format: pf, width: Int(f.width), height: Int(f.height), data0: d0, stride0: Int(f.strides.0))
        }
        guard let d1 = f.planes.1, let d2 = f.planes.2 else { return nil }
        return FramePlanes(format: pf, width: Int(f.width), height: Int(f.height), data0: d0, stride0: Int(f.strides.0),
                           data1: d1, stride1: Int(f.strides.1), data2: d2, stride2: Int(f.strides.2))
    }
}
