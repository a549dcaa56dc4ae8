import MediaGraphCodecs
import MediaGraphCore

/// `subtitlefile`: one subtitle stream as a SubRip (.srt) or WebVTT (.vtt) file, as
/// `ffmpeg -i in.mkv -map 0:s:0 out.srt` (or out.vtt) writes it: every cue goes through
/// libavcodec's decoder and the subrip/webvtt encoder (`SubtitleTranscoder`), so ASS styling is
/// converted or stripped as ffmpeg's encoders do, and the file is laid out as ffmpeg's srt and
/// webvtt muxers lay it out. The file appears at its path only when complete.
public final class SubtitleFileSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "subtitlefile",
        doc: "Writes a subtitle stream as a SubRip (.srt) or WebVTT (.vtt) file, as ffmpeg -i in.mkv -map 0:s:0 out.srt|out.vtt does: cues re-encoded by libavcodec (ASS styling becomes <b>/<i> or is dropped, as ffmpeg's encoders do); appears at its path only when complete.",
        category: .sink,
        inputs: [PortSpec("in", .subtitle(SubtitleFormat.textCodecs), doc: "text subtitles (a filesrc's subtitle port)")],
        params: ParamSpec.list(pathParam))
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file: .srt writes SubRip, .vtt WebVTT")

    /// The file kinds by extension, and the encoder each is written with.
    enum Kind {
        case subrip, webvtt
        var codec: Codec { self == .subrip ? .subrip : .webvtt }
    }

    let path: String
    let kind: Kind
    var format: SubtitleFormat?
    var file: OutputFile?
    var transcoder: SubtitleTranscoder?
    /// SubRip numbers its cues from 1.
    var written = 0
    var received = 0
    /// Milliseconds added to every time so that the first cue is not before zero, as ffmpeg's
    /// avoid_negative_ts moves a trimmed copy's lead-in cues (nil until the first cue).
    var shift: Int64?

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam]
        switch MP4Sink.fileExtension(path) {
        case "srt": kind = .subrip
        case "vtt": kind = .webvtt
        default:
            throw NodeFailure("param 'path': '\(path)' names neither a SubRip (.srt) nor a WebVTT (.vtt) file; the extension picks the format")
        }
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let s = inputs[0].format.subtitle else { throw NodeFailure("expected text subtitles, found \(inputs[0].format)") }
        format = s
        return []
    }

    public func start() throws {
        guard let format else { return }
        do { transcoder = try SubtitleTranscoder(from: format, to: kind.codec) } catch { throw NodeFailure("\(error)") }
        let f = try OutputFile(path: path)
        file = f
        if kind == .webvtt { try f.write("WEBVTT\n") }
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        guard let file, let transcoder else { return }
        let number = received
        received += 1
        guard buffer.pts != SampleBuffer.noTime else { throw NodeFailure("cue \(number) has no pts") }
        let tb = buffer.timeBase
        guard let read = MediaTime.rescale(buffer.pts, timeBase: tb, to: 1000),
              let length = MediaTime.rescale(max(0, buffer.duration), timeBase: tb, to: 1000),
              read.magnitude < 1 << 50, length < 1 << 50 else {
            throw NodeFailure("cue \(number): pts \(buffer.pts) / duration \(buffer.duration) in time base \(tb) is out of range")
        }
        let text: [UInt8]?
        do { text = try transcoder.transcode(buffer.packetBytes, pts: buffer.pts, duration: buffer.duration) } catch {
            throw NodeFailure("cue \(number) at \(TimeValue.clock(Rational(read, 1000))): \(error)")
        }
        guard let text else { return }
        if shift == nil { shift = max(0, -read) }
        let start = read + (shift ?? 0)
        // a later cue still before zero (out of order) cannot be written
        guard start >= 0 else { return }
        written += 1
        var out: [UInt8]
        switch kind {
        case .subrip:
            out = Array("\(written)\n\(Self.srtTime(start)) --> \(Self.srtTime(start + length))\n".utf8) + text + [0x0A, 0x0A]
        case .webvtt:
            out = Array("\n\(Self.vttTime(start)) --> \(Self.vttTime(start + length))\n".utf8) + text + [0x0A]
        }
        try file.write(out)
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }

    /// "01:02:03,456", as ffmpeg's srt muxer writes a time (hours not wrapped).
    static func srtTime(_ ms: Int64) -> String {
        "\(two(ms / 3_600_000)):\(two(ms / 60_000 % 60)):\(two(ms / 1000 % 60)),\(three(ms % 1000))"
    }

    /// "02:03.456", or "01:02:03.456" from an hour on, as ffmpeg's webvtt muxer writes a time.
    static func vttTime(_ ms: Int64) -> String {
        let hours = ms / 3_600_000
        return (hours > 0 ? "\(two(hours)):" : "") + "\(two(ms / 60_000 % 60)):\(two(ms / 1000 % 60)).\(three(ms % 1000))"
    }

    static func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
    static func three(_ v: Int64) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }
}
