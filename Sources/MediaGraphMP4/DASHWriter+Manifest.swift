#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// The MPD of a `DASHWriter`, and what becomes of its files when it stops early.
extension DASHWriter {
    /// The MPD describing the segments in place now (at the end: all of them), or with a window
    /// the latest of them.
    public func manifest(_ kind: DASHManifest.Kind) -> DASHManifest {
        var m = DASHManifest(kind: kind)
        m.availabilityStart = availabilityStart ?? 0
        m.published = Self.wallClockMicroseconds()
        m.title = representations.lazy.compactMap { Self.tags(of: $0.format)?.movie["title"] }.first { !$0.isEmpty }
        for (k, r) in representations.enumerated() {
            let decided = segmenter.segments(of: k)
            let n = min(decided.count, r.files.segmentPaths.count)
            let first = options.window > 0 ? max(0, n - options.window) : 0
            let seconds = Double(decided.prefix(n).reduce(0) { $0 + $1.duration }) / Double(r.timescale)
            let bytes = r.files.segmentBytes.prefix(n).reduce(0, +)
            let configuration = r.muxer.tracks.first?.configuration
            m.representations.append(DASHManifest.Representation(
                id: k, media: Self.media(of: r.format), codecs: configuration.flatMap(DASHCodecString.of) ?? r.format.codec?.rawValue ?? "",
                bandwidth: seconds > 0 ? Int((Double(bytes) * 8 / seconds).rounded()) : nil,
                language: Self.tags(of: r.format)?.language, timescale: r.timescale,
                initialization: options.initialization, segmentName: options.segmentName, segments: Array(decided[first..<n])))
            m.representations[k].startNumber = first + 1
        }
        if options.window > 0, kind == .dynamic, let r = m.representations.first, let last = r.segments.last {
            // ffmpeg's: the last segment's length times the window
            m.timeShiftBufferDepth = MediaTime(value: last.duration * Int64(options.window), timescale: r.timescale)
        }
        return m
    }

    static func tags(of format: MediaFormat) -> StreamTags? {
        switch format {
        case .encodedVideo(let f): f.raw.tags
        case .encodedAudio(let f): f.raw.tags
        default: nil
        }
    }

    static func media(of format: MediaFormat) -> DASHManifest.Representation.Media {
        switch format {
        case .encodedVideo(let f):
            let interlaced = f.raw.interlacing.map { $0 != .progressive } ?? false
            return .video(width: f.width, height: f.height, frameRate: f.frameRate.num > 0 && f.frameRate.den > 0 ? f.frameRate : nil,
                          sampleAspect: f.raw.sampleAspect, interlaced: interlaced)
        case .encodedAudio(let f):
            return .audio(sampleRate: f.codec == .opus ? 48000 : f.sampleRate, channels: f.channels)
        default:
            return .audio(sampleRate: 0, channels: 0)
        }
    }

    /// Replaces the MPD whole: a player sees the old one or the new one, never a mix, and never
    /// one that lists a segment not yet in place.
    func writeManifest(_ kind: DASHManifest.Kind) throws {
        let m = manifest(kind)
        let text = m.text
        let file = try OutputFile(path: manifestPath, bufferSize: 64 << 10)
        do {
            try file.write(Array(text.utf8))
            try file.closeFile()
        } catch {
            file.discard()
            throw error
        }
        listed = m.representations.map { $0.startNumber - 1 + $0.segments.count }
    }

    /// After a failure a dynamic stream keeps the MPD in place and the segments it lists (as a
    /// fragmented MP4 cut short keeps its fragments); a static stream, or a cancelled one,
    /// removes every file it wrote. Sets `outcome`.
    func abandonFiles(cancelled: Bool) {
        if options.kind == .dynamic && !cancelled, let listed {
            var removed = 0
            for (k, r) in representations.enumerated() { removed += r.files.remove(keepingSegments: listed[k]) }
            let n = listed.reduce(0, +)
            outcome = "kept '\(manifestPath)' (dynamic) with the \(n) complete segment\(n == 1 ? "" : "s") it lists"
                + (removed > 0 ? "; removed \(removed) segment\(removed == 1 ? "" : "s") written after it" : "")
            return
        }
        let segments = representations.reduce(0) { $0 + $1.files.segmentPaths.count }
        var removed = 0
        for r in representations { removed += r.files.remove(keepingSegments: 0) }
        if listed != nil, unlink(manifestPath) == 0 { removed += 1 }
        listed = nil
        outcome = removed == 0 ? "no file was written"
            : "removed the \(removed) file\(removed == 1 ? "" : "s") written (\(segments) segment\(segments == 1 ? "" : "s"))"
    }
}
