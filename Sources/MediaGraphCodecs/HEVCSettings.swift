import MediaGraphCore

/// Settings of the HEVC encoder (libx265 through libavcodec). `nil` leaves x265's default.
public struct HEVCSettings: Hashable, Sendable {
    public static let presets = H264Settings.presets

    public var preset: String
    /// Constant rate factor 0...51. Exclusive with `bitrate`.
    public var crf: Double?
    /// Average bitrate in kbit/s. Exclusive with `crf`.
    public var bitrate: Int?
    public var keyint: Int?
    public var bframes: Int?
    /// Worker threads of x265's pool (x265 `pools`); 0 lets x265 choose.
    public var threads: Int
    /// libx265 options that read or write files (`csv`, `stats`, analysis files, lists and
    /// zones read from files; `pass` and `multi-pass-opt-*`, which write stats): refused in
    /// `x265-params` (`scaling-list` only when it names a file, not `default` or `off`).
    static let fileOptions: Set<String> = ["csv", "stats", "pass", "multi-pass-opt-analysis", "multi-pass-opt-distortion",
                                           "analysis-save", "analysis-load", "analysis-reuse-file", "scaling-list",
                                           "lambda-file", "zonefile", "dolby-vision-rpu", "dhdr10-info", "qpfile"]

    /// Passed to x265 as is: `key=value:key=value` (ffmpeg's `-x265-params`).
    public var x265Params: String?

    public init(preset: String = "medium", crf: Double? = nil, bitrate: Int? = nil, keyint: Int? = nil,
                bframes: Int? = nil, threads: Int = 0, x265Params: String? = nil) {
        self.preset = preset
        self.crf = crf
        self.bitrate = bitrate
        self.keyint = keyint
        self.bframes = bframes
        self.threads = threads
        self.x265Params = x265Params
    }

    /// Checks everything that can be checked without opening the library, for frames of the
    /// given size and pixel format (yuv420p for Main, yuv420p10le for Main 10).
    /// Frames narrower than this make libx265 3.5 (Debian 12's) write past the end of its
    /// lookahead's buffers in `Lookahead::cuTree` (fewer than four 8x8 blocks across its half-size
    /// copy; valgrind shows it from 16 to 48 pixels wide, at any height, preset or bit depth, and
    /// glibc aborts on the damage at some sizes, 40x30 among them). With x265's CU-tree off it
    /// does not, so below this width the encoder runs with `cutree=0`.
    public static let narrowestWithCuTree = 50

    /// libx265 refuses pictures less than 16 pixels wide or high ("Image size is too small"),
    /// whatever its CTU and CU sizes: refused here too, when the graph is checked.
    public static let smallestSide = 16

    public func validate(width: Int, height: Int, pixelFormat: PixelFormat = .yuv420p) throws {
        let check = SettingChecks(component: "hevc")
        try check.pixelFormat(pixelFormat, HEVCEncoder.pixelFormats)
        try check.oneOf("preset", preset, Self.presets)
        try check.range("crf", crf, 0...51)
        try check.notBoth("crf", crf != nil, "bitrate", bitrate != nil)
        try check.range("bitrate", bitrate, 1...1_000_000)
        try check.range("keyint", keyint, 1...100_000)
        try check.range("bframes", bframes, 0...16)
        try check.range("threads", threads, 0...256)
        try check.keyValueList("x265-params", x265Params, fileOptions: Self.fileOptions, harmless: ["default", "off"])
        try check.frameSize(width: width, height: height, even: true)
        if width < Self.smallestSide || height < Self.smallestSide {
            throw CodecError.setting("hevc", width < Self.smallestSide ? "width" : "height",
                                     expected: "at least \(Self.smallestSide) pixels a side (libx265's smallest picture)", found: "\(width)x\(height)")
        }
        if width < Self.narrowestWithCuTree, let asked = cuTreeAsked, asked {
            throw CodecError.setting("hevc", "x265-params", expected: "no cutree on frames narrower than \(Self.narrowestWithCuTree) pixels (libx265 3.5 writes outside its buffers there)",
                                     found: "cutree on \(width)x\(height) frames")
        }
    }

    /// What the x265 params say about the CU-tree: true or false when one of `cutree`,
    /// `cutree=…` or `no-cutree` is there (the last wins, as in x265), nil when none is.
    var cuTreeAsked: Bool? {
        var asked: Bool?
        for item in (x265Params ?? "").split(separator: ":") {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if parts[0] == "no-cutree" { asked = false }
            if parts[0] == "cutree" { asked = parts.count == 1 || !["0", "false", "no", "off"].contains(parts[1]) }
        }
        return asked
    }

    func libavOptions(width: Int) -> [(String, String)] {
        var o: [(String, String)] = [("preset", preset)]
        if let crf { o.append(("crf", String(crf))) }
        if let bitrate { o.append(("b", String(bitrate * 1000))) }
        if let keyint { o.append(("g", String(keyint))) }
        if let bframes { o.append(("bf", String(bframes))) }
        var params = [String]()
        if threads > 0 { params.append("pools=\(threads)") }
        // x265 prints its banner and statistics to stderr itself; keep it to errors.
        params.append("log-level=error")
        if let x265Params, !x265Params.isEmpty { params.append(x265Params) }
        if width < Self.narrowestWithCuTree { params.append("cutree=0") }
        o.append(("x265-params", params.joined(separator: ":")))
        return o
    }
}
