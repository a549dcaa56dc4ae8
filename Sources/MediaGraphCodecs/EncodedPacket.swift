/// One compressed frame (video) or access unit (audio) as an encoder emits it.
///
/// Times are in the encoder's time base (video: the `timeBase` given at open; audio:
/// 1/sampleRate). `pts` is the presentation time of the input frame it came from, unchanged;
/// `dts` is monotonic and, where B-frames reorder, below `pts`.
public struct EncodedPacket: Sendable, Equatable {
    public var data: [UInt8]
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var isKeyFrame: Bool

    public init(data: [UInt8], pts: Int64, dts: Int64, duration: Int64, isKeyFrame: Bool) {
        self.data = data
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyFrame = isKeyFrame
    }
}
