import MediaGraphCodecs
import MediaGraphCore

/// `prores`: Apple ProRes through libavcodec's prores_ks (ffmpeg's `-c:v prores_ks`).
public final class ProResEncoderNode: VideoEncoderNode, RegisteredNode {
    public static let typeInfo = encoderInfo("prores", "Apple ProRes encoder (prores_ks through libavcodec), ffmpeg's -c:v prores_ks: profiles proxy, lt, standard, hq, 4444, 4444xq from yuv422p10le or yuv444p10le; every frame a key frame; the profile's four-character code (apco … ap4x) goes with the packets for the .mov sample description.", codec: .prores, pixelFormats: ProResEncoder.pixelFormats, params: ParamSpec.list(profile, vendor, bitsPerMB, mbsPerSlice, quantMatrix, threads))
    static let profile = Param<String>("profile", oneOf: ProResSettings.profileNames, default: "auto",
                                       doc: "ProRes profile as prores_ks names it (-profile:v; auto: hq for 4:2:2 input, 4444 for 4:4:4)")
    static let vendor = Param<String?>("vendor", doc: "four-character creator code in each frame header (prores_ks -vendor; default \"Lavc\", Apple's own is \"apl0\")")
    static let bitsPerMB = Param<Int?>("bits-per-mb", 0...8192, doc: "target bits per macroblock instead of the profile's rate (prores_ks -bits_per_mb)")
    static let mbsPerSlice = Param<Int?>("mbs-per-slice", 1...8, doc: "macroblocks per slice: 1, 2, 4 or 8 (prores_ks -mbs_per_slice; default 8)")
    static let quantMatrix = Param<String?>("quant-matrix", oneOf: ProResSettings.quantMatrices, doc: "quantiser matrix (prores_ks -quant_mat; default: the profile's)")
    static let threads = Param<Int>("threads", 0...64, default: 0, doc: "encoder threads (0 = one per core, as ffmpeg's -threads auto)")

    let settings: ProResSettings

    public required init(setup: NodeSetup) throws {
        let p = setup.params
        settings = ProResSettings(profile: p[Self.profile], vendor: p[Self.vendor], bitsPerMB: p[Self.bitsPerMB],
                                  mbsPerSlice: p[Self.mbsPerSlice], quantMatrix: p[Self.quantMatrix], threads: p[Self.threads])
        try super.init(setup: setup)
    }

    override public var codec: Codec { .prores }
    override public func validate(format: VideoFormat) throws {
        try ProResEncoder.validate(settings: settings, format: format)
    }
    override public func codecTag(for format: VideoFormat) -> String? {
        settings.resolvedProfile(for: format.pixelFormat).fourCC
    }
    override public func open(format: VideoFormat, timeBase: Rational) throws -> any VideoEncoder {
        try ProResEncoder(settings: settings, format: format, timeBase: timeBase)
    }
}
