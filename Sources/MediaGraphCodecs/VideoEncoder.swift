import MediaGraphCore

/// The shape every video encoder shares. Nodes hold the concrete type; the protocol lets tests
/// and tools drive any of them the same way.
///
/// Contract: `encode` takes frames of the format given at open (any strides; the planes need to
/// stay valid only during the call) and returns the packets that became ready, possibly none
/// while the encoder looks ahead. `flush` drains every delayed frame: over a whole stream,
/// frames in == packets out. The format's colour and sample aspect ratio go into the bitstream
/// (H.264/HEVC VUI, VP9 colour config).
public protocol VideoEncoder: AnyObject {
    associatedtype Settings

    /// Opens the encoder for frames of `format` (pixel format, size, frame rate, colour,
    /// aspect) whose timestamps count `timeBase`.
    init(settings: Settings, format: VideoFormat, timeBase: Rational) throws

    /// Global headers and stream description, known right after open.
    var configuration: CodecConfiguration { get }

    /// `duration`: the frame's own (time base ticks; 0 when unknown), what its packet gets when
    /// no later frame says where it ends (the last frame: after a join of clips of other rates
    /// it is not the nominal one).
    func encode(_ frame: FramePlanes, pts: Int64, duration: Int64) throws -> [EncodedPacket]
    func flush() throws -> [EncodedPacket]
}

extension VideoEncoder {
    /// Encodes a frame of nominal duration.
    public func encode(_ frame: FramePlanes, pts: Int64) throws -> [EncodedPacket] { try encode(frame, pts: pts, duration: 0) }
}

extension VideoEncoder {
    /// Opens the encoder for yuv420p frames that say nothing about their colour or aspect.
    public init(settings: Settings, width: Int, height: Int, timeBase: Rational, frameRate: Rational) throws {
        try self.init(settings: settings, format: VideoFormat.unlabelled(width: width, height: height, frameRate: frameRate, timeBase: timeBase),
                      timeBase: timeBase)
    }
}

extension VideoFormat {
    /// yuv420p with nothing said about range, colour or aspect (as `ffmpeg -f rawvideo` reads it).
    static func unlabelled(width: Int, height: Int, frameRate: Rational, timeBase: Rational) -> VideoFormat {
        VideoFormat(pixelFormat: .yuv420p, width: width, height: height, frameRate: frameRate, range: .unspecified,
                    sampleAspect: Rational(0, 1), timeBase: timeBase)
    }
}
