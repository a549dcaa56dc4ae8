import CMediaGraphPlugin
import MediaGraphCore

/// The host's pixel formats as the plugin header numbers them.
enum PixelFormatCode {
    static func code(_ f: PixelFormat) -> Int32 {
        switch f {
        case .yuv420p: return Int32(MG_PIXEL_YUV420P.rawValue)
        case .yuv422p: return Int32(MG_PIXEL_YUV422P.rawValue)
        case .yuv444p: return Int32(MG_PIXEL_YUV444P.rawValue)
        case .rgba: return Int32(MG_PIXEL_RGBA.rawValue)
        case .bgra: return Int32(MG_PIXEL_BGRA.rawValue)
        case .gray: return Int32(MG_PIXEL_GRAY.rawValue)
        // plugins take 8-bit frames only (the interface has no code for these)
        case .yuv420p10, .yuv422p10, .yuv444p10: return -1
        }
    }

    static func format(_ code: Int32) -> PixelFormat? {
        PixelFormat.allCases.first { self.code($0) == code }
    }

    /// A C frame describing `planes` (no copy).
    static func frame(_ planes: FramePlanes, pts: Int64, timeBase: Rational) -> mg_frame {
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
}
