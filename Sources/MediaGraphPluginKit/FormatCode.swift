import CMediaGraphPlugin
import MediaGraphCore

/// Pixel format codes and frame structs of the C plugin interface: the one map, used by the
/// plugin side (this kit) and by the host (MediaGraphPlugins), so the two cannot drift apart.
package enum FormatCode {
    /// The formats the interface numbers. Plugins take 8-bit frames only: 10-bit formats have no code.
    static let order: [(PixelFormat, mg_pixel_format)] = [
        (.yuv420p, MG_PIXEL_YUV420P), (.yuv422p, MG_PIXEL_YUV422P), (.yuv444p, MG_PIXEL_YUV444P),
        (.rgba, MG_PIXEL_RGBA), (.bgra, MG_PIXEL_BGRA), (.gray, MG_PIXEL_GRAY),
    ]

    /// Every format the interface has a code for.
    package static var formats: [PixelFormat] { order.map(\.0) }

    /// The code of `f`, or -1 for a format the interface has no code for.
    package static func code(_ f: PixelFormat) -> Int32 { order.first { $0.0 == f }.map { Int32($0.1.rawValue) } ?? -1 }
    package static func format(_ c: Int32) -> PixelFormat? { order.first { Int32($0.1.rawValue) == c }?.0 }

    /// A C frame describing `planes` (no copy).
    package static func frame(_ planes: FramePlanes, pts: Int64, timeBase: Rational) -> mg_frame {
        var f = mg_frame()
        f.format = code(planes.format)
        f.width = Int32(planes.width)
        f.height = Int32(planes.height)
        f.plane_count = Int32(planes.planeCount)
        f.planes = (planes.data0, planes.data1, planes.data2, nil)
        f.strides = (Int64(planes.stride0), Int64(planes.stride1), Int64(planes.stride2), 0)
        f.pts = pts
        f.time_base_num = Int32(clamping: timeBase.num)
        f.time_base_den = Int32(clamping: timeBase.den)
        return f
    }

    /// The planes a host frame describes, or nil when the description is inconsistent.
    package static func planes(_ f: mg_frame) -> FramePlanes? {
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
