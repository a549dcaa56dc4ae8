import MediaGraphCodecs
import MediaGraphCore
import MediaGraphMP4

/// How the packets of one file stream are described to the graph: the edge format (codec, what
/// decoding yields, time base, codec-private data) and the `CodecConfiguration` every packet
/// carries for muxers, parsed from the container's extradata (avcC, hvcC, AudioSpecificConfig,
/// OpusHead; VP8/VP9 from the codec parameters). AAC in ADTS framing (MPEG-TS, .aac files) is
/// turned into raw AAC frames with an AudioSpecificConfig, as MP4 and decoders want it.
struct FileStreamDescription {
    let info: StreamInfo
    /// Time base of the port's timestamps: the stream's, or the sample clock for audio whose
    /// container stores coarser times (Matroska's milliseconds).
    let timeBase: Rational
    let format: MediaFormat
    let configuration: CodecConfiguration
    /// Packets start with an ADTS header that is cut off.
    let stripsADTS: Bool
    /// Why the configuration is only `.other` for a codec a muxer knows (shown by `validate`).
    let warning: String?

    /// `firstPacket`: the stream's first packet, for streams whose configuration is in-band.
    init(info: StreamInfo, timeBase: Rational, firstPacket: [UInt8]?, movieTags: TagList = [:], chapters: [Chapter] = []) {
        self.info = info
        self.timeBase = timeBase
        var extradata = info.extradata
        var strips = false
        var warning: String?
        let configuration: CodecConfiguration
        func fallback(_ why: String) -> CodecConfiguration {
            warning = "stream \(info.index) (\(info.codec)): \(why); it can be decoded, but not copied into MP4"
            return .other(info.codec, extradata: info.extradata)
        }
        switch info.codec {
        case .h264, .hevc:
            let inBand = { firstPacket.flatMap { CodecConfigurationRecords.annexBParameterSets($0, codec: info.codec) } }
            if extradata.isEmpty || CodecConfigurationRecords.isAnnexB(extradata) {
                if let c = CodecConfigurationRecords.annexBParameterSets(extradata, codec: info.codec) ?? inBand() {
                    configuration = c
                } else {
                    configuration = fallback("no parameter sets in the codec-private data or the first packet")
                }
            } else {
                do {
                    configuration = info.codec == .h264 ? .h264(try CodecConfigurationRecords.avcC(extradata))
                                                        : .hevc(try CodecConfigurationRecords.hvcC(extradata))
                } catch {
                    configuration = fallback("\(error)")
                }
            }
        case .aac:
            if extradata.isEmpty, let first = firstPacket, let adts = CodecConfigurationRecords.adtsHeader(first) {
                var c = adts.configuration
                // the container's rate and channels (HE-AAC doubles the ADTS header's core rate)
                if info.sampleRate > 0 { c.sampleRate = info.sampleRate }
                if info.channels > 0 { c.channels = info.channels }
                configuration = .aac(c)
                extradata = c.audioSpecificConfig
                strips = true
            } else if let asc = try? CodecConfigurationRecords.audioSpecificConfig(extradata) {
                configuration = .aac(AACConfiguration(audioSpecificConfig: extradata, sampleRate: info.sampleRate,
                                                      channels: info.channels, objectType: asc.objectType))
            } else {
                configuration = fallback(extradata.isEmpty ? "no AudioSpecificConfig and no ADTS header"
                                                           : "its AudioSpecificConfig does not parse")
            }
        case .opus:
            do { configuration = .opus(try CodecConfigurationRecords.opusHead(extradata)) } catch {
                configuration = fallback("\(error)")
            }
        case .mp3:
            configuration = .mp3
        case .vp8, .vp9:
            configuration = .vpx(FileStreamDescription.vpx(info))
        default:
            configuration = .other(info.codec, extradata: info.extradata)
        }
        self.configuration = configuration
        self.stripsADTS = strips
        self.warning = warning
        if info.kind == .subtitle {
            var f = info.subtitleFormat
            f.timeBase = timeBase
            f.tags.movie = movieTags
            f.tags.chapters = chapters
            format = .subtitle(f)
        } else if info.kind == .video {
            var raw = info.videoFormat
            raw.tags.movie = movieTags
            raw.tags.chapters = chapters
            format = .encodedVideo(EncodedVideoFormat(codec: info.codec, raw: raw, timeBase: timeBase, extradata: extradata,
                                                      storedLayout: info.nativePixelFormat, codedBitsPerSample: info.codedBitsPerSample))
        } else {
            var raw = info.audioFormat
            raw.tags.movie = movieTags
            raw.tags.chapters = chapters
            let coding = AudioCodingParameters(blockAlign: info.blockAlign, codedBitsPerSample: info.codedBitsPerSample, bitRate: info.bitRate)
            format = .encodedAudio(EncodedAudioFormat(codec: info.codec, raw: raw, timeBase: timeBase, extradata: extradata,
                                                      coding: coding))
        }
    }

    /// A packet's bytes as the graph gets them (ADTS header cut off where the stream has one).
    /// Other packets are passed on as they are held (no copy); ADTS frames are small and copied.
    func payload(_ bytes: PacketBytes) -> PacketBytes {
        guard stripsADTS else { return bytes }
        let frame = bytes.array
        guard let h = CodecConfigurationRecords.adtsHeader(frame) else { return PacketBytes(frame) }
        return PacketBytes(Array(frame[h.headerSize...]))
    }

    /// Whether the configuration needs the stream's first packet (parameter sets in-band, ADTS).
    static func needsFirstPacket(_ info: StreamInfo) -> Bool {
        switch info.codec {
        case .h264, .hevc:
            return (info.extradata.isEmpty || CodecConfigurationRecords.isAnnexB(info.extradata))
                && CodecConfigurationRecords.annexBParameterSets(info.extradata, codec: info.codec) == nil
        case .aac:
            return info.extradata.isEmpty
        default:
            return false
        }
    }

    /// The vpcC fields from the codec parameters, as ffmpeg's MP4 muxer derives them.
    static func vpx(_ s: StreamInfo) -> VPXConfiguration {
        let pf = s.pixelFormat
        let subsampling: UInt8
        switch pf.chromaShift {
        case (1, 1): subsampling = s.color.chromaLocation == .left ? 0 : 1
        case (1, 0): subsampling = 2
        default: subsampling = 3
        }
        let level = s.level > 0 ? UInt8(clamping: s.level)
            : CodecConfigurationRecords.vp9Level(width: s.width, height: s.height, frameRate: s.averageFrameRate ?? s.realFrameRate)
        return VPXConfiguration(codec: s.codec, profile: s.profile >= 0 ? UInt8(clamping: s.profile) : 0, level: level,
                                bitDepth: UInt8(clamping: s.bitDepth > 0 ? s.bitDepth : pf.bitDepth), chromaSubsampling: subsampling,
                                fullRange: s.range == .full, colourPrimaries: UInt8(clamping: s.primariesCode),
                                transferCharacteristics: UInt8(clamping: s.transferCode), matrixCoefficients: UInt8(clamping: s.matrixCode))
    }
}
