/// The file names of one rendition of a master playlist, from the stream's name prefix and the
/// input port it came in on: `<prefix>_<port>.m3u8`, `<prefix>_<port>_init.mp4` and
/// `<prefix>_<port>_0.m4s`, `<prefix>_<port>_1.m4s`, …
///
/// No two renditions' files can have the same name: the three kinds differ in how they end,
/// and within a kind the port is what stands between `<prefix>_` and the next `_` or `.` (port
/// names are `video`, `video1`, `audio`, … without either), so `video_10.m4s` and `video1_0.m4s`
/// stay apart. Only the master playlist's own name can meet one: `HLSRenditionNames.collision`.
public struct HLSRenditionNames: Sendable, Equatable {
    public let prefix: String
    public let port: String

    public init(prefix: String, port: String) {
        self.prefix = prefix
        self.port = port
    }

    public var playlist: String { prefix + "_" + port + ".m3u8" }
    public var initialization: String { prefix + "_" + port + "_init.mp4" }
    /// Segment k is this followed by k and `.m4s`.
    public var segmentPrefix: String { prefix + "_" + port + "_" }

    /// The port whose media playlist would have the master playlist's file name, if any.
    public static func collision(masterName: String, prefix: String, ports: [String]) -> String? {
        ports.first { HLSRenditionNames(prefix: prefix, port: $0).playlist == masterName }
    }
}
