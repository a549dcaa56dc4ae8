import MediaGraphCore

/// One elementary stream of an `MPEGTSMuxer`: its queue for interleaving and its state on the
/// wire (continuity counter, PCR timing, audio waiting to fill a PES packet).
final class MPEGTSTrack {
    let name: String
    let codec: Codec
    let isVideo: Bool
    let format: MediaFormat
    var configuration: CodecConfiguration?
    var queue: [MP4Sample] = []
    var ended = false
    var lastDTS: Int64?
    var received = 0
    var written = 0
    var counter: UInt8 = 15
    /// The last PES carried a key frame (a video key frame after another repeats no tables).
    var previousKey = false
    /// Between PCRs, 27 MHz; 0 when the track carries none.
    var pcrPeriod: Int64 = 0
    var lastPCR: Int64 = 0
    /// Video: the access unit builder.
    var accessUnit: MPEGTSVideoAccessUnit?
    /// AAC: ADTS headers from the AudioSpecificConfig.
    var adts: ADTSFraming?
    /// Audio frames waiting to be written as one PES packet, and the first one's times.
    var payload: [UInt8] = []
    var payloadPTS: Int64 = 0
    var payloadDTS: Int64 = 0
    /// One audio frame in ADTS (reused).
    var frame: [UInt8] = []

    init(name: String, format: MediaFormat, configuration: CodecConfiguration?) {
        self.name = name
        self.format = format
        codec = format.codec ?? .h264
        isVideo = format.isVideo
        self.configuration = configuration
        if isVideo { accessUnit = MPEGTSVideoAccessUnit(codec: codec) }
    }

    /// PCR spacing as ffmpeg picks it for a variable-rate stream: the largest multiple of the
    /// frame duration within 100 ms (video by its frame rate, audio by its frame size); every
    /// PES when the frame rate is not known or not to be used.
    func configureTiming(isPCR: Bool, usesFrameRate: Bool) {
        guard isPCR else { return }
        let limit: Int64 = 2_700_000
        var framePeriod: Int64 = 0
        switch format {
        case .encodedVideo(let v) where usesFrameRate && v.frameRate.num > 0 && v.frameRate.den > 0:
            framePeriod = (Int64(v.frameRate.den) * 27_000_000 + Int64(v.frameRate.num) - 1) / Int64(v.frameRate.num)
        case .encodedAudio(let a) where a.sampleRate > 0:
            let samples: Int64 = codec == .mp3 ? (a.sampleRate < 32000 ? 576 : 1152) : 1024
            framePeriod = (samples * 27_000_000 + Int64(a.sampleRate) - 1) / Int64(a.sampleRate)
        default: break
        }
        pcrPeriod = framePeriod > 0 && framePeriod <= limit ? framePeriod * (limit / framePeriod) : 1
        // ffmpeg starts the PCR clock at the mux delay, one period back, so the first PES has one
        lastPCR = MPEGTSMuxer.muxDelay * 300 - pcrPeriod
    }
}
