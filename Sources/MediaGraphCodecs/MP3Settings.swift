import MediaGraphCore

/// Settings of the MP3 encoder (libmp3lame through libavcodec), named as ffmpeg's `-b:a` and
/// `-q:a` are.
public struct MP3Settings: Hashable, Sendable {
    /// The rates MPEG-1 (32/44.1/48 kHz), MPEG-2 (16/22.05/24) and MPEG-2.5 (8/11.025/12) code.
    public static let sampleRates = [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    /// The rate of `sampleRates` nearest to `rate` (the higher of two as near).
    public static func nearestSampleRate(to rate: Int) -> Int {
        sampleRates.min { (abs($0 - rate), -$0) < (abs($1 - rate), -$1) }!
    }

    /// Constant bitrate in kbit/s; nil: 128 unless `quality` is set (ffmpeg's libmp3lame default).
    public var bitrate: Int?
    /// Variable bitrate quality, 0 (best) … 9 (smallest), as ffmpeg's `-q:a`.
    public var quality: Int?

    public init(bitrate: Int? = nil, quality: Int? = nil) {
        self.bitrate = bitrate
        self.quality = quality
    }

    /// The bitrate coded at, nil for VBR.
    public var effectiveBitrate: Int? { quality == nil ? (bitrate ?? 128) : nil }

    public func validate(sampleRate: Int, channels: Int) throws {
        let check = SettingChecks(component: "mp3")
        try check.notBoth("quality", quality != nil, "bitrate", bitrate != nil)
        try check.range("bitrate", bitrate, 8...320)
        try check.range("quality", quality, 0...9)
        // the channels come from the input, not a param: say so, and how to mix them down
        guard (1...2).contains(channels) else {
            throw CodecError(.invalidSetting, component: "mp3",
                             message: "the input has \(channels) channels; MP3 codes mono or stereo (put a 'resample' with 'layout': \"stereo\" in front to mix them down)")
        }
        guard Self.sampleRates.contains(sampleRate) else {
            throw CodecError.setting("mp3", "sample rate",
                                     expected: "one of \(Self.sampleRates.map(String.init).joined(separator: ", ")) (a 'resample' in front converts)",
                                     found: "\(sampleRate)")
        }
    }
}
