import MediaGraphCore
import MediaGraphMP4

/// Which codecs the muxer writes, under which CodecID, with which CodecPrivate (Matroska codec
/// mappings; what ffmpeg's matroskaenc writes for them).
public enum MatroskaCodecs {
    /// Every codec the muxer writes.
    public static let written: [Codec] = [.vp8, .vp9, .h264, .hevc, .opus, .aac, .subrip, .ass, .webvtt]
    /// Those a WebM file may hold (of the ones written).
    public static let webm: Set<Codec> = [.vp8, .vp9, .opus, .webvtt]

    /// The CodecID string of a codec, nil for one the muxer does not write.
    public static func codecID(_ c: Codec) -> String? {
        switch c {
        case .vp8: return "V_VP8"
        case .vp9: return "V_VP9"
        case .h264: return "V_MPEG4/ISO/AVC"
        case .hevc: return "V_MPEGH/ISO/HEVC"
        case .opus: return "A_OPUS"
        case .aac: return "A_AAC"
        case .subrip: return "S_TEXT/UTF8"
        case .ass: return "S_TEXT/ASS"
        // ffmpeg 5.1 writes WebVTT as WebM does, in .mkv too: the cue's identifier and settings
        // lead the block, one line each
        case .webvtt: return "D_WEBVTT/SUBTITLES"
        default: return nil
        }
    }

    /// The doc type a file of these codecs gets: WebM when every one is a WebM codec.
    public static func docType(for codecs: [Codec]) -> MatroskaDocType {
        codecs.allSatisfy { webm.contains($0) } ? .webm : .matroska
    }

    /// CodecPrivate: avcC, hvcC, the AudioSpecificConfig, OpusHead; empty (none written) for
    /// VP8/VP9, as ffmpeg 5.1 writes them. Nil when the configuration does not suit the codec.
    static func codecPrivate(_ c: CodecConfiguration, codec: Codec) -> [UInt8]? {
        switch (codec, c) {
        case (.vp8, .vpx(let v)), (.vp9, .vpx(let v)):
            return v.codec == codec ? [] : nil
        case (.h264, .h264(let h)):
            return h.sps.isEmpty || h.pps.isEmpty || h.sps[0].count < 4 ? nil : CodecConfigurationRecords.avcCRecord(h)
        case (.hevc, .hevc(let h)):
            return h.vps.isEmpty || h.sps.isEmpty || h.pps.isEmpty ? nil : CodecConfigurationRecords.hvcCRecord(h)
        case (.aac, .aac(let a)):
            return a.audioSpecificConfig.count >= 2 ? a.audioSpecificConfig : nil
        case (.opus, .opus(let o)):
            return (1...255).contains(o.channels) && (0...0xFFFF).contains(o.preSkip) ? opusHead(o) : nil
        default:
            return nil
        }
    }

    /// The Ogg identification header (RFC 7845 5.1), little-endian, which Matroska stores as the
    /// Opus CodecPrivate.
    static func opusHead(_ o: OpusConfiguration) -> [UInt8] {
        var b = Array("OpusHead".utf8)
        b.append(1) // version
        b.append(UInt8(clamping: o.channels))
        let skip = UInt16(clamping: o.preSkip)
        b.append(UInt8(skip & 0xFF)); b.append(UInt8(skip >> 8))
        let rate = UInt32(clamping: o.inputSampleRate)
        for k in 0..<4 { b.append(UInt8((rate >> (8 * UInt32(k))) & 0xFF)) }
        let gain = UInt16(bitPattern: o.outputGain)
        b.append(UInt8(gain & 0xFF)); b.append(UInt8(gain >> 8))
        b.append(o.mappingFamily)
        if o.mappingFamily != 0 {
            b.append(o.streamCount)
            b.append(o.coupledCount)
            b.append(contentsOf: o.channelMapping)
        }
        return b
    }
}
