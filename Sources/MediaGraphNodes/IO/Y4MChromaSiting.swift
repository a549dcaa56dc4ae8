import MediaGraphCore

/// Chroma siting of 4:2:0 YUV4MPEG2, which its C tag names (as ffmpeg's yuv4mpeg demuxer and
/// muxer map them): 420jpeg and plain 420 are centred, 420mpeg2 is left, 420paldv top-left.
extension Y4MHeader {
    /// Where the header's colour space tag puts the chroma samples.
    var chromaLocation: ChromaLocation {
        switch colorspaceTag {
        case "420jpeg", "420": return .center
        case "420mpeg2": return .left
        case "420paldv": return .topleft
        default: return .unspecified
        }
    }

    /// The C tag (with ffmpeg's XYSCSS companion) that states a 4:2:0 chroma siting; centred
    /// (420jpeg) for any siting Y4M has no name for.
    static func chroma420Tag(_ location: ChromaLocation) -> String {
        switch location {
        case .left: return "C420mpeg2 XYSCSS=420MPEG2"
        case .topleft: return "C420paldv XYSCSS=420PALDV"
        default: return "C420jpeg XYSCSS=420JPEG"
        }
    }
}
