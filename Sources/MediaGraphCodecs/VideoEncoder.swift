import MediaGraphCore

/// The shape every video encoder shares. Nodes hold the concrete type; the protocol lets tests
/// and tools drive any of them the same way.
///
/// Contract: `encode` takes yuv420p frames of the size given at open (any strides; the planes
/// need to stay valid only during the call) and returns the packets that became ready, possibly
/// none while the encoder looks ahead. `flush` drains every delayed frame: over a whole stream,
/// frames in == packets out.
public protocol VideoEncoder: AnyObject {
    associatedtype Settings

    init(settings: Settings, width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws

    /// Global headers and stream description, known right after open.
    var configuration: CodecConfiguration { get }

    func encode(_ frame: FramePlanes, pts: Int64) throws -> [EncodedPacket]
    func flush() throws -> [EncodedPacket]
}
