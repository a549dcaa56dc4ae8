import MediaGraphCore

/// Settings of the H.264 encoder (libx264 through libavcodec). `nil` leaves x264's default.
/// Names follow the graph-file params; each maps to the ffmpeg option of the same meaning
/// (documented in Docs/codecs.md) so that the same settings give the same bytes as
/// `ffmpeg -c:v libx264`.
public struct H264Settings: Hashable, Sendable {
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium",
                                 "slow", "slower", "veryslow", "placebo"]
    public static let tunes = ["film", "animation", "grain", "stillimage", "psnr", "ssim", "fastdecode", "zerolatency"]
    public static let profiles = ["baseline", "main", "high", "high10"]
    public static let levels = ["1", "1b", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "3", "3.1", "3.2",
                                "4", "4.1", "4.2", "5", "5.1", "5.2", "6", "6.1", "6.2"]

    public var preset: String
    public var tune: String?
    public var profile: String?
    public var level: String?
    /// Constant rate factor 0...51 (lower is better). Exclusive with `bitrate`.
    public var crf: Double?
    /// Average bitrate in kbit/s (ABR). Exclusive with `crf`.
    public var bitrate: Int?
    /// VBV maximum rate in kbit/s; needs `bufsize`.
    public var maxrate: Int?
    /// VBV buffer size in kbit.
    public var bufsize: Int?
    /// Maximum distance between key frames (GOP length).
    public var keyint: Int?
    public var minKeyint: Int?
    public var bframes: Int?
    public var refs: Int?
    /// Encoder threads; 0 lets x264 choose (as ffmpeg's default `-threads auto`).
    public var threads: Int
    /// libx264 options that read or write files (`stats`, and `pass`, which writes its stats to
    /// x264_2pass.log in the working directory): refused in `x264-params`.
    static let fileOptions: Set<String> = ["stats", "pass", "cqmfile", "dump-yuv", "opencl", "opencl-clbin"]

    /// Passed to x264 as is: `key=value:key=value` (ffmpeg's `-x264-params`).
    public var x264Params: String?

    public init(preset: String = "medium", tune: String? = nil, profile: String? = nil, level: String? = nil,
                crf: Double? = nil, bitrate: Int? = nil, maxrate: Int? = nil, bufsize: Int? = nil,
                keyint: Int? = nil, minKeyint: Int? = nil, bframes: Int? = nil, refs: Int? = nil,
                threads: Int = 0, x264Params: String? = nil) {
        self.preset = preset
        self.tune = tune
        self.profile = profile
        self.level = level
        self.crf = crf
        self.bitrate = bitrate
        self.maxrate = maxrate
        self.bufsize = bufsize
        self.keyint = keyint
        self.minKeyint = minKeyint
        self.bframes = bframes
        self.refs = refs
        self.threads = threads
        self.x264Params = x264Params
    }

    /// Checks everything that can be checked without opening the library, for frames of the
    /// given size and pixel format (yuv420p, or yuv420p10le for High 10).
    public func validate(width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p) throws {
        let check = SettingChecks(component: "h264")
        try check.pixelFormat(pixelFormat, H264Encoder.pixelFormats)
        if pixelFormat.bitDepth > 8, let profile, profile != "high10" {
            throw CodecError.setting("h264", "profile", expected: "high10 (or none) for 10-bit input", found: "'\(profile)'")
        }
        if pixelFormat.bitDepth == 8, profile == "high10" {
            throw CodecError.setting("h264", "profile", expected: "baseline, main or high for 8-bit input (high10 takes yuv420p10le)", found: "'high10'")
        }
        try check.oneOf("preset", preset, Self.presets)
        try check.oneOf("tune", tune, Self.tunes)
        try check.oneOf("profile", profile, Self.profiles)
        try check.oneOf("level", level, Self.levels)
        try check.range("crf", crf, 0...51)
        try check.notBoth("crf", crf != nil, "bitrate", bitrate != nil)
        try check.range("bitrate", bitrate, 1...1_000_000)
        try check.range("maxrate", maxrate, 1...1_000_000)
        try check.range("bufsize", bufsize, 1...1_000_000)
        if maxrate != nil && bufsize == nil {
            throw CodecError.setting("h264", "bufsize", expected: "a VBV buffer size in kbit when 'maxrate' is set", found: "none")
        }
        try check.range("keyint", keyint, 1...100_000)
        try check.range("min-keyint", minKeyint, 1...100_000)
        if let minKeyint, let keyint, minKeyint > keyint {
            throw CodecError.setting("h264", "min-keyint", expected: "at most keyint (\(keyint))", found: "\(minKeyint)")
        }
        try check.range("bframes", bframes, 0...16)
        try check.range("refs", refs, 1...16)
        try check.range("threads", threads, 0...128)
        try check.keyValueList("x264-params", x264Params, fileOptions: Self.fileOptions)
        try check.frameSize(width: width, height: height, even: true)
    }

    /// The libavcodec options, named as ffmpeg's command line names them.
    var libavOptions: [(String, String)] {
        var o: [(String, String)] = [("preset", preset)]
        if let tune { o.append(("tune", tune)) }
        if let profile { o.append(("profile", profile)) }
        if let level { o.append(("level", level)) }
        if let crf { o.append(("crf", String(crf))) }
        if let bitrate { o.append(("b", String(bitrate * 1000))) }
        if let maxrate { o.append(("maxrate", String(maxrate * 1000))) }
        if let bufsize { o.append(("bufsize", String(bufsize * 1000))) }
        if let keyint { o.append(("g", String(keyint))) }
        if let minKeyint { o.append(("keyint_min", String(minKeyint))) }
        if let bframes { o.append(("bf", String(bframes))) }
        if let refs { o.append(("refs", String(refs))) }
        o.append(("threads", threads == 0 ? "auto" : String(threads)))
        if let x264Params, !x264Params.isEmpty { o.append(("x264-params", x264Params)) }
        return o
    }
}
