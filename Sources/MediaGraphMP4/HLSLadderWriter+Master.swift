#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// The master playlist of an `HLSLadderWriter`, and what becomes of its files when it stops early.
extension HLSLadderWriter {
    /// The master describing the segments in place now (at the end: all of them). Variants and
    /// audio renditions each in `RenditionSpec.position` order; the first audio is the default.
    /// A variant's BANDWIDTH and AVERAGE-BANDWIDTH are its video playlist's peak and average
    /// segment bit rates plus the largest of the audio renditions' (RFC 8216 4.3.4.2: the
    /// largest sum over the renditions it can be played with).
    public var master: HLSMasterPlaylist {
        let ordered = renditions.sorted { $0.spec.position < $1.spec.position }
        let audio = ordered.filter { !$0.isVideo }
        var m = HLSMasterPlaylist()
        m.version = segmentType == .mpegts ? 3 : 7
        m.independentSegments = renditions.allSatisfy { $0.files.playlist.segments.allSatisfy(\.independent) }
        var names: Set<String> = []
        for (k, a) in audio.enumerated() {
            let language = Self.language(of: a.format)
            var name = language ?? a.spec.names.port
            if names.contains(name) { name += " (\(a.spec.names.port))" }
            names.insert(name)
            m.audio.append(HLSMasterPlaylist.AudioRendition(uri: a.spec.names.playlist, name: name, language: language,
                                                            isDefault: k == 0))
        }
        let audioPeak = audio.compactMap(\.files.playlist.peakBitRate).max() ?? 0
        let audioAverage = audio.compactMap(\.files.playlist.averageBitRate).max() ?? 0
        var audioCodecs: [String] = []
        for a in audio {
            if let c = Self.codecString(a), !audioCodecs.contains(c) { audioCodecs.append(c) }
        }
        for v in ordered where v.isVideo {
            guard case .encodedVideo(let f) = v.format else { continue }
            let p = v.files.playlist
            m.variants.append(HLSMasterPlaylist.Variant(
                uri: v.spec.names.playlist, bandwidth: (p.peakBitRate ?? 0) + audioPeak,
                averageBandwidth: p.averageBitRate.map { $0 + audioAverage },
                codecs: (Self.codecString(v).map { [$0] } ?? []) + audioCodecs,
                width: f.width, height: f.height, frameRate: f.frameRate))
        }
        return m
    }

    /// RFC 6381 string of a rendition's codec, from the configuration its init segment was
    /// written with (MPEG-TS: its parameter sets), as the DASH sink states it.
    static func codecString(_ r: Rendition) -> String? {
        let configuration = switch r.muxer {
        case let m as MP4Muxer: m.tracks.first?.configuration
        case let m as MPEGTSMuxer: m.tracks.first?.configuration
        default: nil as CodecConfiguration?
        }
        return configuration.flatMap(DASHCodecString.of)
    }

    /// The stream's language tag, when it can stand in the playlist.
    static func language(of format: MediaFormat) -> String? {
        let tags: StreamTags? = switch format {
        case .encodedAudio(let f): f.raw.tags
        case .encodedVideo(let f): f.raw.tags
        default: nil
        }
        guard let language = tags?.language, !language.isEmpty, HLSMasterPlaylist.isQuotable(language) else { return nil }
        return language
    }

    /// EVENT or live: after a segment, once every rendition's media playlist is in place, the
    /// master appears (once; it is rewritten at the end).
    func writeFirstEventMaster() throws {
        guard kind.growsWhileRunning, !masterWritten, renditions.count == specs.count,
              renditions.allSatisfy(\.files.playlistWritten) else { return }
        try writeMaster()
    }

    /// Replaces the master whole: a player sees the old one or the new one, never a mix.
    func writeMaster() throws {
        let file = try OutputFile(path: masterPath, bufferSize: 64 << 10)
        do {
            try file.write(Array(master.text.utf8))
            try file.closeFile()
        } catch {
            file.discard()
            throw error
        }
        masterWritten = true
    }

    /// After a failure an EVENT or live stream whose master is in place keeps it and every media
    /// playlist with its segments (as a fragmented MP4 cut short keeps its fragments); any other
    /// stream removes every file of every rendition. Sets `outcome`.
    func abandonFiles(cancelled: Bool) {
        let segments = renditions.reduce(0) { $0 + $1.files.playlist.segments.count }
        let plural = { (n: Int) in n == 1 ? "" : "s" }
        if kind.growsWhileRunning && !cancelled && masterWritten {
            outcome = "kept '\(masterPath)' and its \(renditions.count) media playlists with the \(segments) complete segment\(plural(segments)) written, without #EXT-X-ENDLIST"
            return
        }
        var removed = renditions.reduce(0) { $0 + $1.files.removeWritten() }
        if masterWritten, unlink(masterPath) == 0 { removed += 1 }
        masterWritten = false
        outcome = removed == 0 ? "no file was written"
            : "removed the \(removed) file\(plural(removed)) written (\(segments) segment\(plural(segments)) of \(renditions.count) renditions)"
    }
}
