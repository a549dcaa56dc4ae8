/// What a muxer needs to describe an encoded stream (avcC, hvcC, vpcC, esds), as the encoder
/// reports it. Encoders attach it to every packet they emit.
public enum CodecConfiguration: Hashable, Sendable {
    case h264(H264Configuration)
    case hevc(HEVCConfiguration)
    case vpx(VPXConfiguration)
    case aac(AACConfiguration)
    case opus(OpusConfiguration)
    /// MPEG-1/2 Layer III: each frame header describes itself.
    case mp3
    /// Any other codec: its codec-private data as the container stored it.
    case other(Codec, extradata: [UInt8])
}

/// How the NAL units of H.264/HEVC packets are delimited: start codes (Annex B, what encoders
/// and TS files give) or a big-endian length prefix of 1, 2 or 4 bytes (what MP4 and Matroska
/// store, so a stream copy passes them through untouched).
public enum NALFraming: Hashable, Sendable {
    case annexB
    case lengthPrefixed(Int)
}

/// Opus: the fields of the Ogg "OpusHead" header (RFC 7845 5.1), which the MP4 `dOps` box
/// (Opus in ISOBMFF, 4.3.2) stores big-endian and Matroska stores as-is in CodecPrivate.
public struct OpusConfiguration: Hashable, Sendable {
    public var channels: Int
    /// Samples (at 48 kHz) to discard from the start of the decoded stream.
    public var preSkip: Int
    /// The sample rate of the original input (informational).
    public var inputSampleRate: Int
    /// Q7.8 dB.
    public var outputGain: Int16
    public var mappingFamily: UInt8
    /// For mapping family ≠ 0: stream count, coupled count and the channel mapping table.
    public var streamCount: UInt8
    public var coupledCount: UInt8
    public var channelMapping: [UInt8]

    public init(channels: Int, preSkip: Int, inputSampleRate: Int, outputGain: Int16 = 0, mappingFamily: UInt8 = 0,
                streamCount: UInt8 = 1, coupledCount: UInt8 = 0, channelMapping: [UInt8] = []) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.outputGain = outputGain
        self.mappingFamily = mappingFamily
        self.streamCount = streamCount
        self.coupledCount = coupledCount
        self.channelMapping = channelMapping
    }
}

/// H.264 parameter sets (NAL units without start codes or length prefixes).
public struct H264Configuration: Hashable, Sendable {
    public var sps: [[UInt8]]
    public var pps: [[UInt8]]
    /// How the packets delimit their NAL units.
    public var framing: NALFraming = .annexB
    public var profileIDC: UInt8 { sps.first.map { $0.count > 1 ? $0[1] : 0 } ?? 0 }
    public var constraintFlags: UInt8 { sps.first.map { $0.count > 2 ? $0[2] : 0 } ?? 0 }
    public var levelIDC: UInt8 { sps.first.map { $0.count > 3 ? $0[3] : 0 } ?? 0 }

    public init(sps: [[UInt8]], pps: [[UInt8]]) {
        self.sps = sps
        self.pps = pps
    }
}

/// HEVC parameter sets (NAL units without start codes or length prefixes).
public struct HEVCConfiguration: Hashable, Sendable {
    public var vps: [[UInt8]]
    public var sps: [[UInt8]]
    public var pps: [[UInt8]]
    /// How the packets delimit their NAL units.
    public var framing: NALFraming = .annexB

    public init(vps: [[UInt8]], sps: [[UInt8]], pps: [[UInt8]]) {
        self.vps = vps
        self.sps = sps
        self.pps = pps
    }
}

/// VP8/VP9 stream description, as the vpcC box (VP Codec ISO Media File Format Binding) holds it.
public struct VPXConfiguration: Hashable, Sendable {
    public var codec: Codec
    public var profile: UInt8
    public var level: UInt8
    public var bitDepth: UInt8
    /// 0 = 4:2:0 vertical, 1 = 4:2:0 colocated with luma, 2 = 4:2:2, 3 = 4:4:4.
    public var chromaSubsampling: UInt8
    public var fullRange: Bool
    public var colourPrimaries: UInt8
    public var transferCharacteristics: UInt8
    public var matrixCoefficients: UInt8

    public init(codec: Codec, profile: UInt8 = 0, level: UInt8 = 10, bitDepth: UInt8 = 8,
                chromaSubsampling: UInt8 = 1, fullRange: Bool = false, colourPrimaries: UInt8 = 2,
                transferCharacteristics: UInt8 = 2, matrixCoefficients: UInt8 = 2) {
        self.codec = codec
        self.profile = profile
        self.level = level
        self.bitDepth = bitDepth
        self.chromaSubsampling = chromaSubsampling
        self.fullRange = fullRange
        self.colourPrimaries = colourPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
    }
}

/// AAC: the AudioSpecificConfig (ISO/IEC 14496-3) plus the values it encodes, for convenience.
public struct AACConfiguration: Hashable, Sendable {
    public var audioSpecificConfig: [UInt8]
    public var sampleRate: Int
    public var channels: Int
    /// Audio object type (2 = AAC LC).
    public var objectType: Int

    public init(audioSpecificConfig: [UInt8], sampleRate: Int, channels: Int, objectType: Int = 2) {
        self.audioSpecificConfig = audioSpecificConfig
        self.sampleRate = sampleRate
        self.channels = channels
        self.objectType = objectType
    }
}
