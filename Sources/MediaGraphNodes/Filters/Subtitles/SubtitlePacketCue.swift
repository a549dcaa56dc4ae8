import MediaGraphCore

/// A subtitle packet from an edge (a `filesrc` subtitle port) as a cue the `subtitles` node
/// draws, under the same text rules as a file's cues (`SubtitleCues`): SubRip and WebVTT packets
/// are the cue's text; an ASS/SSA packet is an event line (ReadOrder, Layer, Style, Name,
/// MarginL, MarginR, MarginV, Effect, Text, as Matroska and libavformat store it) whose text is
/// the last field, `\N` and `\n` breaking lines. Tags and override blocks are dropped, `{\an7}`
/// to `{\an9}` or a WebVTT `line:` from the top put the cue at the top.
enum SubtitlePacketCue {
    /// The codecs whose packets are text it reads.
    static let codecs: [Codec] = [.subrip, .ass, .ssa, .webvtt]

    /// Fields before an ASS event's text in a packet.
    static let assFieldsBeforeText = 8

    /// The cue of one packet, nil when it has no text to draw (or no time).
    static func cue(_ buffer: borrowing SampleBuffer, codec: Codec) -> SubtitleCues.Cue? {
        guard buffer.pts != SampleBuffer.noTime, buffer.packetBytes.count <= MediaLimits.maxSubtitlePacketSize else { return nil }
        let tb = buffer.timeBase.doubleValue
        let start = Double(buffer.pts) * tb, end = Double(buffer.pts + max(0, buffer.duration)) * tb
        guard end > start else { return nil }
        var text = String(decoding: buffer.packetBytes.array, as: UTF8.self)
        if codec == .ass || codec == .ssa {
            // the text is everything after the eighth comma (it may hold commas itself)
            var commas = 0
            guard let cut = text.firstIndex(where: { c in
                if c == "," { commas += 1 }
                return commas == assFieldsBeforeText
            }) else { return nil }
            text = String(text[text.index(after: cut)...]).replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\n", with: "\n")
        }
        let raw = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let lines = raw.map { SubtitleCues.plain($0) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        var atTop = raw.contains { $0.contains("{\\an7}") || $0.contains("{\\an8}") || $0.contains("{\\an9}") }
        if codec == .webvtt, let settings = buffer.metadata.webVTT?.settings, !settings.isEmpty {
            atTop = atTop || SubtitleCues.lineSettingIsTop(Substring(String(decoding: settings, as: UTF8.self)))
        }
        return SubtitleCues.Cue(start: start, end: end, lines: lines, atTop: atTop)
    }
}
