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
         ("libwebp", dotted(UInt32(truncatingIfNeeded: WebPGetEncoderVersion())))]
    }

    /// ffmpeg's and libwebp's packing: major, minor and micro in the bytes above the lowest.
    private static func dotted(_ v: UInt32) -> String {
        "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }
}
