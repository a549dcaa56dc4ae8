/// The 4-byte header of an MPEG-1/2/2.5 Layer III frame (ISO 11172-3 2.4.1.3, ISO 13818-3):
/// what the Info frame is built from and what its counts need.
public struct MP3FrameHeader: Equatable, Sendable {
    /// 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5 (the header's two version bits).
    public var version: Int
    public var bitrateIndex: Int
    public var sampleRateIndex: Int
    public var padding: Bool
    /// 0 stereo, 1 joint stereo, 2 dual channel, 3 mono.
    public var channelMode: Int

    static let bitratesMPEG1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    static let bitratesMPEG2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    static let sampleRatesMPEG1 = [44100, 48000, 32000]

    /// Parses a Layer III header; nil if `bytes` does not start with one (free format included:
    /// its frame size is not in the header).
    public init?(_ bytes: some RandomAccessCollection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        let b = Array(bytes.prefix(4))
        let version = Int(b[1] >> 3) & 3
        guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0, version != 1, (b[1] >> 1) & 3 == 1 else { return nil }
        let bitrateIndex = Int(b[2] >> 4), sampleRateIndex = Int(b[2] >> 2) & 3
        guard (1...14).contains(bitrateIndex), sampleRateIndex < 3 else { return nil }
        self.init(version: version, bitrateIndex: bitrateIndex, sampleRateIndex: sampleRateIndex,
                  padding: b[2] & 2 != 0, channelMode: Int(b[3] >> 6))
    }

    public init(version: Int, bitrateIndex: Int, sampleRateIndex: Int, padding: Bool, channelMode: Int) {
        self.version = version
        self.bitrateIndex = bitrateIndex
        self.sampleRateIndex = sampleRateIndex
        self.padding = padding
        self.channelMode = channelMode
    }

    var isMPEG1: Bool { version == 3 }
    public var bitrate: Int { (isMPEG1 ? Self.bitratesMPEG1 : Self.bitratesMPEG2)[bitrateIndex] * 1000 }
    public var sampleRate: Int { Self.sampleRatesMPEG1[sampleRateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2) }
    public var samplesPerFrame: Int { isMPEG1 ? 1152 : 576 }
    /// Bytes of the whole frame, header included.
    public var frameSize: Int { (isMPEG1 ? 144 : 72) * bitrate / sampleRate + (padding ? 1 : 0) }
    /// Bytes of side information after the header (where a Xing/Info tag starts, ahead of it).
    public var sideInfoSize: Int { isMPEG1 ? (channelMode == 3 ? 17 : 32) : (channelMode == 3 ? 9 : 17) }

    /// The header's bytes: Layer III, no CRC, no private/copyright/original bits, no emphasis.
    public var bytes: [UInt8] {
        [0xFF, UInt8(0xE0 | version << 3 | 1 << 1 | 1),
         UInt8(bitrateIndex << 4 | sampleRateIndex << 2 | (padding ? 2 : 0)), UInt8(channelMode << 6)]
    }
}
