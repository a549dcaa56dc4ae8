/// The shape the audio encoders over libavcodec share, so one node class drives any of them.
public protocol FloatAudioEncoder: AnyObject {
    /// Whether it takes interleaved float (Opus) rather than planar.
    var takesInterleaved: Bool { get }
    /// Encodes `count` samples from `floats`: planar encoders read channel c at
    /// `floats + c · planeStride` (a stride of 0 reads one plane for every channel), interleaved
    /// ones `count · channels` values.
    func encode(floats: UnsafePointer<Float>, count: Int, planeStride: Int) throws -> [EncodedPacket]
    /// Encodes what is left and drains the encoder.
    func flush() throws -> [EncodedPacket]
}
