import CASS
import CAVCodec
import CAVFormat
import CSwresample
import CSwscale
import CVPX
import CWebP

/// The C libraries MediaGraph decodes, encodes and converts with, and their versions as the
/// loaded libraries report them at run time (which can differ from the headers it was built
/// against when the system's packages were upgraded since): for `mediagraph --version`.
public enum LinkedLibraries {
    public static var versions: [(name: String, version: String)] {
        [("libavcodec", dotted(avcodec_version())),
         ("libavformat", dotted(avformat_version())),
         ("libswscale", dotted(swscale_version())),
         ("libswresample", dotted(swresample_version())),
         ("libvpx", String(cString: vpx_codec_version_str())),
         ("libwebp", dotted(UInt32(truncatingIfNeeded: WebPGetEncoderVersion()))),
         ("libass", assDotted(UInt32(truncatingIfNeeded: ass_library_version())))]
    }

    /// ffmpeg's and libwebp's packing: major, minor and micro in the bytes above the lowest.
    private static func dotted(_ v: UInt32) -> String {
        "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }

    /// libass's packing: the version's digits as hex digits, one for the major, two for the
    /// minor, two for the micro (0x01701000 is 0.17.1).
    private static func assDotted(_ v: UInt32) -> String {
        let hex = String(v, radix: 16)
        let digits = Array(String(repeating: "0", count: max(0, 8 - hex.count)) + hex)
        func number(_ r: ClosedRange<Int>) -> String { String(Int(String(digits[r])) ?? 0) }
        return "\(number(0...0)).\(number(1...2)).\(number(3...4))"
    }
}
