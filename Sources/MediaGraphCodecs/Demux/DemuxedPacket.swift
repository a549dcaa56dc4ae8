import MediaGraphCore

/// One packet read from a container, its payload libavformat's own buffer (held, not copied).
/// Timestamps are the container's, in the stream's time base (`Int64.min` when missing).
public struct DemuxedPacket: Sendable {
    public var streamIndex: Int
    public var bytes: PacketBytes
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var isKeyFrame: Bool
    /// The container marks the payload as damaged (e.g. the file ends inside it).
    public var isCorrupt: Bool
    /// The container says the packet is to be decoded but not shown (before an edit list's start).
    public var isDiscarded: Bool
    /// Audio samples at the start and at the end of this packet that are not to be played
    /// (AV_PKT_DATA_SKIP_SAMPLES: encoder delay, padding).
    public var skipStart: Int
    public var skipEnd: Int
    /// Audio samples the packet decodes to, as libavcodec reckons from its size and the codec
    /// parameters (0 when unknown or not audio).
    public var sampleCount: Int
    /// Byte offset of the packet in the file (-1 when unknown).
    public var position: Int64
    /// A paletted stream's palette from this packet on (AV_PKT_DATA_PALETTE: 256 native-endian
    /// ARGB words), as the container gives it — AVI and MOV only with a stream's first packet, or
    /// when it changes — and as `Demuxer` gives it again on the first packet after a seek. nil on
    /// every other packet (no allocation).
    public var palette: [UInt8]? = nil
    /// A WebVTT cue's identifier and settings (nil on every other packet).
    public var webVTT: WebVTTCueExtras? = nil

    public static let noTime = Int64.min
}
