import MediaGraphCore

/// Settings of the VP8 and VP9 encoders (libvpx). `nil` leaves libvpx's (or, where noted,
/// ffmpeg's) default, so that the same settings give the same stream as ffmpeg's libvpx wrapper.
///
/// Rate control: `bitrate` alone is VBR; `cqLevel` with `bitrate` is constrained quality (the
/// bitrate caps); `cqLevel` alone is constant quality on VP9 (VPX_Q) and constrained quality at
/// libvpx's default bitrate on VP8; neither is ffmpeg's default (VP9: constant quality 32,
/// VP8: VBR at libvpx's default 256 kbit/s).
public struct VPXSettings: Hashable, Sendable {
    public static let deadlines = ["realtime", "good", "best"]

    /// Target bitrate in kbit/s.
    public var bitrate: Int?
    /// Quality level 0...63 (lower is better), ffmpeg's `-crf` for libvpx.
    public var cqLevel: Int?
    /// "realtime", "good" or "best".
    public var deadline: String
    /// Speed/quality trade-off; default 1 as ffmpeg's wrapper sets it (libvpx's own default is 0).
    public var cpuUsed: Int
    /// Maximum distance between key frames.
    public var keyint: Int?
    /// Encoder threads; 0 = one per core (at most 16), as ffmpeg's default `-threads auto`.
    public var threads: Int
    /// Frames the encoder may hold back to choose alternate references (0...25).
    public var lagInFrames: Int?
    /// VP9 only: multi-threading inside a tile row by row.
    public var rowMT: Bool?
    /// VP9 only: log2 of the number of tile columns (0...6).
    public var tileColumns: Int?
    /// VP9 only: profile, 0 (8-bit 4:2:0) or 2 (10-bit 4:2:0); nil follows the input's bit
    /// depth, as ffmpeg's wrapper does.
    public var profile: Int?

    public init(bitrate: Int? = nil, cqLevel: Int? = nil, deadline: String = "good", cpuUsed: Int = 1,
                keyint: Int? = nil, threads: Int = 0, lagInFrames: Int? = nil, rowMT: Bool? = nil,
                tileColumns: Int? = nil, profile: Int? = nil) {
        self.bitrate = bitrate
        self.cqLevel = cqLevel
        self.deadline = deadline
        self.cpuUsed = cpuUsed
        self.keyint = keyint
        self.threads = threads
        self.lagInFrames = lagInFrames
        self.rowMT = rowMT
        self.tileColumns = tileColumns
        self.profile = profile
    }

    /// Checks everything that can be checked without opening libvpx, for VP8 (`vp9 == false`)
    /// or VP9 and frames of the given size and pixel format.
    public func validate(vp9: Bool, width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p) throws {
        let component = vp9 ? "vp9" : "vp8"
        let check = SettingChecks(component: component)
        try check.pixelFormat(pixelFormat, vp9 ? VP9Encoder.pixelFormats : [.yuv420p])
        try check.range("bitrate", bitrate, 1...1_000_000)
        try check.range("cq-level", cqLevel, 0...63)
        try check.oneOf("deadline", deadline, Self.deadlines)
        try check.range("cpu-used", cpuUsed, vp9 ? -9...9 : -16...16)
        try check.range("keyint", keyint, 1...100_000)
        try check.range("threads", threads, 0...64)
        try check.range("lag-in-frames", lagInFrames, 0...25)
        if vp9 {
            try check.range("tile-columns", tileColumns, 0...6)
            if let profile {
                let expected = pixelFormat.bitDepth > 8 ? 2 : 0
                guard profile == expected else {
                    throw CodecError.setting(component, "profile",
                                             expected: "\(expected) for \(pixelFormat) input (profile 0 takes 8-bit 4:2:0, 2 takes 10-bit)",
                                             found: "\(profile)")
                }
            }
        } else {
            if rowMT != nil {
                throw CodecError.setting(component, "row-mt", expected: "no row-mt (a VP9 setting)", found: "row-mt")
            }
            if tileColumns != nil {
                throw CodecError.setting(component, "tile-columns", expected: "no tile-columns (a VP9 setting)", found: "tile-columns")
            }
            try check.range("profile", profile, 0...0)
        }
        try check.frameSize(width: width, height: height, even: false)
    }
}
