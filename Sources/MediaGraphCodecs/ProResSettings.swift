import MediaGraphCore

/// Settings of the ProRes encoder (libavcodec's prores_ks), named and numbered as ffmpeg's
/// `-c:v prores_ks` options, so that the same settings give the same packets.
public struct ProResSettings: Hashable, Sendable {
    /// A ProRes profile: prores_ks's name and number, and the QuickTime four-character code
    /// that names it in a .mov (ProRes frames do not say their profile).
    public struct Profile: Hashable, Sendable {
        public let name: String
        public let number: Int
        public let fourCC: String
    }

    /// prores_ks's profiles, in its order.
    public static let profiles: [Profile] = [
        Profile(name: "proxy", number: 0, fourCC: "apco"), Profile(name: "lt", number: 1, fourCC: "apcs"),
        Profile(name: "standard", number: 2, fourCC: "apcn"), Profile(name: "hq", number: 3, fourCC: "apch"),
        Profile(name: "4444", number: 4, fourCC: "ap4h"), Profile(name: "4444xq", number: 5, fourCC: "ap4x"),
    ]
    /// The `profile` values: `auto` (prores_ks's default: hq for 4:2:2, 4444 for 4:4:4) and the profiles.
    public static let profileNames = ["auto"] + profiles.map(\.name)
    /// The quantiser matrices prores_ks offers (`quant_mat`); `auto` is the profile's own.
    public static let quantMatrices = ["auto", "proxy", "lt", "standard", "hq", "default"]

    public var profile: String
    /// Four characters written into every frame header as its creator (prores_ks: "Lavc").
    public var vendor: String?
    /// Target bits per macroblock (0: the profile's own rate), prores_ks `bits_per_mb`.
    public var bitsPerMB: Int?
    /// Macroblocks per slice, 1, 2, 4 or 8 (prores_ks `mbs_per_slice`).
    public var mbsPerSlice: Int?
    public var quantMatrix: String?
    /// Encoder threads; 0 lets libavcodec choose (ffmpeg's default `-threads auto`).
    public var threads: Int

    public init(profile: String = "auto", vendor: String? = nil, bitsPerMB: Int? = nil, mbsPerSlice: Int? = nil,
                quantMatrix: String? = nil, threads: Int = 0) {
        self.profile = profile
        self.vendor = vendor
        self.bitsPerMB = bitsPerMB
        self.mbsPerSlice = mbsPerSlice
        self.quantMatrix = quantMatrix
        self.threads = threads
    }

    /// The profile frames of `pixelFormat` are coded in (`auto` resolved as prores_ks does).
    public func resolvedProfile(for pixelFormat: PixelFormat) -> Profile {
        let name = profile != "auto" ? profile : pixelFormat == .yuv444p10 ? "4444" : "hq"
        return Self.profiles.first { $0.name == name } ?? Self.profiles[3]
    }

    public func validate(width: Int, height: Int, pixelFormat: PixelFormat) throws {
        let check = SettingChecks(component: "prores")
        try check.pixelFormat(pixelFormat, ProResEncoder.pixelFormats)
        try check.oneOf("profile", profile, Self.profileNames)
        try check.oneOf("quant-matrix", quantMatrix, Self.quantMatrices)
        if let vendor, vendor.utf8.count != 4 || !vendor.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            throw CodecError.setting("prores", "vendor", expected: "four printable ASCII characters (e.g. \"apl0\")", found: "'\(vendor)'")
        }
        try check.range("bits-per-mb", bitsPerMB, 0...8192)
        if let m = mbsPerSlice, ![1, 2, 4, 8].contains(m) {
            throw CodecError.setting("prores", "mbs-per-slice", expected: "1, 2, 4 or 8", found: "\(m)")
        }
        try check.range("threads", threads, 0...64)
        try check.frameSize(width: width, height: height, even: false)
    }

    /// The libavcodec options, named as ffmpeg's command line names them.
    func libavOptions(pixelFormat: PixelFormat) -> [(String, String)] {
        var o: [(String, String)] = [("profile", String(resolvedProfile(for: pixelFormat).number))]
        if let vendor { o.append(("vendor", vendor)) }
        if let bitsPerMB { o.append(("bits_per_mb", String(bitsPerMB))) }
        if let mbsPerSlice { o.append(("mbs_per_slice", String(mbsPerSlice))) }
        if let quantMatrix { o.append(("quant_mat", quantMatrix)) }
        o.append(("threads", threads == 0 ? "auto" : String(threads)))
        return o
    }
}
