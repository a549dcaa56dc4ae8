import MediaGraphCore

extension MP4Muxer {
    /// Adds a track for an encoded edge format (what a node's input port negotiated), with the
    /// metadata its raw format carries (colour, aspect, rotation, language, creation time).
    /// The track timescale is the packets' time base denominator, doubled until ≥ 10000 as
    /// ffmpeg does (1/25 → 12800), so `MediaTime.converted(to: timescale(of:))` is exact.
    public func addTrack(for format: MediaFormat, configuration: CodecConfiguration? = nil) throws -> MP4TrackID {
        switch format {
        case .encodedVideo(let f):
            return try addVideoTrack(codec: f.codec, width: f.width, height: f.height,
                                     timescale: Self.timescale(for: f.timeBase), configuration: configuration,
                                     metadata: MP4TrackMetadata(video: f.raw), codecTag: f.codecTag)
        case .encodedAudio(let f):
            return try addAudioTrack(codec: f.codec, sampleRate: f.sampleRate, channels: f.channels,
                                     configuration: configuration, metadata: MP4TrackMetadata(audio: f.raw),
                                     channelLayout: f.raw.channelLayout)
        default:
            throw MP4MuxerError.invalidOption("an MP4 track needs encoded video or audio, not \(format)")
        }
    }

    /// The timescale of a track, in ticks per second.
    public func timescale(of track: MP4TrackID) -> Int64? {
        guard track.index >= 0, track.index < tracks.count else { return nil }
        return tracks[track.index].description.timescale
    }

    /// A timescale that represents every multiple of `timeBase` exactly.
    public static func timescale(for timeBase: Rational) -> Int64 {
        var ts = max(1, timeBase.den)
        while ts < 10000 { ts *= 2 }
        return ts
    }
}
