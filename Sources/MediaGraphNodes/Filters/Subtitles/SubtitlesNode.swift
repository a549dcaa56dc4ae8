import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphCodecs

/// `subtitles`: burns the cues of a SubRip (.srt) or WebVTT (.vtt) file into the picture, as
/// ffmpeg's `subtitles=file.srt` is used for: each line centred, the cue's last line `margin`
/// pixels above the bottom, white text with a black outline by default. Each line is drawn
/// exactly as ffmpeg's drawtext draws that line alone at x=(w-text_w)/2 (FreeType, ffmpeg 5.1's
/// arithmetic), and lines stack upwards, each its own text_h above the one below; cues on at
/// once stack too, the earliest at the bottom. A cue the file puts at the top (`{\an8}`,
/// WebVTT's `line:0`) hangs `margin` pixels below the top edge instead, later ones below it. Styling in the file is dropped
/// (`SubtitleCues`). The file is read whole when the graph is built (at most 16 MiB).
///
/// Instead of `path`, the optional `subtitle` input takes a stream's cues from an edge (a
/// `filesrc` subtitle port: SubRip, ASS/SSA, WebVTT; `SubtitlePacketCue`). A frame is then held
/// until a cue starting after it has come (or the cues have ended), preferring that input, so
/// each frame shows every cue on at its time; should the engine hand over another frame first
/// (the cues cannot come before more video flows), the held frame goes out with the cues known.
public final class SubtitlesNode: RegisteredNode, VideoNode, WaitsForPreferredInput {
    public static let typeInfo = NodeTypeInfo(
        name: "subtitles",
        doc: "Burns subtitles from a SubRip (.srt) or WebVTT (.vtt) file, or from a file's subtitle stream on the 'subtitle' input (ffmpeg's subtitles=in.mkv:si=0), into the video (ffmpeg's subtitles filter, drawn as its drawtext draws text): lines centred above the bottom, white with a black outline; size, colours and margin follow the frame height unless given.",
        category: .filter,
        inputs: [PortSpec("in", .video(DrawTextNode.formats), doc: "raw video"),
                 PortSpec("subtitle", .subtitle(SubtitlePacketCue.codecs), doc: "instead of 'path': a subtitle stream (a filesrc's subtitle port: SubRip, ASS/SSA, WebVTT), drawn with the same rules", optional: true)],
        outputs: [PortSpec("out", .video(DrawTextNode.formats), doc: "the frames with the cues that are on (in place when possible)")],
        params: ParamSpec.list(pathParam, DrawTextNode.fontFileParam, DrawTextNode.fontParam, sizeParam, colorParam,
                               borderParam, DrawTextNode.borderColorParam, marginParam))

    static let pathParam = Param<String?>.path("path", role: .input, doc: "the .srt or .vtt file (UTF-8); a file starting with WEBVTT is read as WebVTT, any other as SubRip; or connect the 'subtitle' input instead")
    static let sizeParam = Param<Int?>("size", 1...1000, doc: "font size in pixels (the em height); default the frame height × 16/288, the size libass gives a SubRip file's text")
    static let colorParam = Param<String>("color", default: "white", doc: "text colour: a name, #RRGGBB[AA] or 0xRRGGBB[AA], optionally @alpha")
    static let borderParam = Param<Int?>("border", 0...100, doc: "outline width in pixels; default the size / 16 (at least 1)")
    static let marginParam = Param<Int?>("margin", 0...16384, doc: "pixels between the bottom of the frame and the last line; default the frame height × 10/288")

    /// The file is read whole, once; a subtitle file is kilobytes.
    static let fileLimit = 16 << 20

    var cues: [SubtitleCues.Cue]
    /// The longest a cue lasts: how far back a search for the cues on at a time goes.
    var longest: Double
    /// Cues come on the `subtitle` input (input 1) rather than from `path`.
    let fromEdge: Bool
    var cueCodec: Codec?
    var cuesEnded = false
    /// The latest cue start received (seconds).
    var latestCueStart = -Double.infinity
    /// A frame waiting for the cues that start at or before it.
    var held: SampleBuffer?
    let fontFile: String?, fontName: String
    let sizeGiven: Int?, borderGiven: Int?, marginGiven: Int?
    let colors: (text: RGBAColor, border: RGBAColor)
    public let validationWarnings: [String]

    var format: VideoFormat?
    var glyphs: GlyphCache?
    var border = 0, margin = 0
    var blend: (text: BlendColor, border: BlendColor)?
    /// The lines of the cues on at the last frame, laid out, by cue index.
    var layouts: [Int: [TextLayout]] = [:]
    /// The latest frame time drawn (seconds): cues that ended before it are over.
    var latestFrameTime = -Double.infinity

    public init(setup: NodeSetup) throws {
        let p = setup.params
        fromEdge = setup.connectedInputs.contains("subtitle")
        switch (p[Self.pathParam], fromEdge) {
        case (let path?, false):
            let bytes: [UInt8]
            do { bytes = try SmallFileReader.read(path, limit: Self.fileLimit) } catch {
                throw NodeFailure("param 'path' (\(path)): \(error.message(for: "subtitle file"))")
            }
            let parsed: SubtitleCues
            do { parsed = try SubtitleCues(bytes, name: path) } catch { throw NodeFailure("param 'path': \(error)") }
            cues = parsed.cues
            validationWarnings = parsed.skipped
        case (nil, true):
            cues = []
            validationWarnings = []
        case (_?, true):
            throw NodeFailure("param 'path' and input 'subtitle' are alternatives: give the cues from a file or from a subtitle stream, not both")
        case (nil, false):
            throw NodeFailure("no cues: give param 'path' (a .srt or .vtt file) or connect input 'subtitle' (a filesrc's subtitle port)")
        }
        longest = cues.map { $0.end - $0.start }.max() ?? 0
        fontFile = p[DrawTextNode.fontFileParam]
        fontName = p[DrawTextNode.fontParam]
        sizeGiven = p[Self.sizeParam]
        borderGiven = p[Self.borderParam]
        marginGiven = p[Self.marginParam]
        func color(_ param: Param<String>) throws -> RGBAColor {
            do { return try RGBAColor(parsing: p[param]) } catch { throw NodeFailure("param '\(param.name)': \(error)") }
        }
        colors = (try color(Self.colorParam), try color(DrawTextNode.borderColorParam))
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        format = v
        if fromEdge {
            guard inputs.count > 1, let s = inputs[1].format.subtitle else { throw NodeFailure("input 'subtitle': expected text subtitles") }
            cueCodec = s.codec
        }
        let size = sizeGiven ?? max(1, Int((Double(v.height) * 16 / 288).rounded()))
        border = borderGiven ?? max(1, Int((Double(size) / 16).rounded()))
        margin = marginGiven ?? Int((Double(v.height) * 10 / 288).rounded())
        do {
            let (path, index) = try fontFile.map { ($0, 0) } ?? { let f = try FontLookup.file(family: fontName); return (f.path, f.index) }()
            glyphs = GlyphCache(face: try FontFace(path: path, index: index, pixelSize: size, borderWidth: border))
        } catch let e as FontError {
            throw NodeFailure("\(fontFile == nil ? "param 'font'" : "param 'font-file'"): \(e)")
        }
        blend = (BlendColor(colors.text, for: v), BlendColor(colors.border, for: v))
        layouts = [:]
        return [inputs[0].format]
    }

    /// Indices of the cues on at `t` seconds, earliest start first.
    func cuesOn(at t: Double) -> [Int] {
        // the first cue starting after t
        var low = 0, high = cues.count
        while low < high {
            let mid = (low + high) / 2
            if cues[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        var on: [Int] = []
        var k = low - 1
        while k >= 0, cues[k].start >= t - longest {
            if cues[k].end > t { on.append(k) }
            k -= 1
        }
        return on.reversed()
    }

    public var waitsForPreferredInput: Bool { fromEdge }

    /// The cues while a frame waits for them, else the frames.
    public func preferredInput() -> Int? { fromEdge && held != nil && !cuesEnded ? 1 : 0 }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if input == 1 {
            if let codec = cueCodec, let cue = SubtitlePacketCue.cue(buffer, codec: codec) { add(cue) }
            latestCueStart = max(latestCueStart, Double(buffer.pts == SampleBuffer.noTime ? 0 : buffer.pts) * buffer.timeBase.doubleValue)
            return try releaseHeld(output: output, unlessWaiting: true)
        }
        guard fromEdge else { return try draw(buffer, output: output) }
        // a frame handed over while one waits: the cues cannot come first, so it goes out as is
        try releaseHeld(output: output, unlessWaiting: false)
        let t = buffer.pts == SampleBuffer.noTime ? -Double.infinity : Double(buffer.pts) * buffer.timeBase.doubleValue
        if cuesEnded || latestCueStart > t { return try draw(buffer, output: output) }
        held = consume buffer
    }

    public func inputEnded(_ input: Int) throws {
        if input == 1 { cuesEnded = true }
    }

    public func finish(output: NodeOutput) throws { try releaseHeld(output: output, unlessWaiting: false) }

    /// Sends the held frame, unless `unlessWaiting` and the cues have not yet passed its time.
    func releaseHeld(output: NodeOutput, unlessWaiting: Bool) throws {
        guard let frame = held else { return }
        let t = frame.pts == SampleBuffer.noTime ? -Double.infinity : Double(frame.pts) * frame.timeBase.doubleValue
        if unlessWaiting && !cuesEnded && latestCueStart <= t { return }
        held = nil
        try draw(frame, output: output)
    }

    func draw(_ buffer: consuming SampleBuffer, output: NodeOutput) throws {
        let format = buffer.format
        guard let frame = VideoFrame(consume buffer) else { throw NodeFailure("input 'in' takes raw video, got \(format)") }
        try process(frame: frame, input: 0, output: output)
    }

    /// A cue from the edge, in start order; cues long over are let go (a run of hours keeps
    /// only those that can still be on), and the layouts with them.
    func add(_ cue: SubtitleCues.Cue) {
        let k = cues.lastIndex { $0.start <= cue.start }.map { $0 + 1 } ?? 0
        cues.insert(cue, at: k)
        longest = max(longest, cue.end - cue.start)
        let over = cues.prefix { $0.end <= latestFrameTime }.count
        if over >= 64 {
            cues.removeFirst(over)
            layouts = [:]
        }
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        if frame.pts != SampleBuffer.noTime { latestFrameTime = max(latestFrameTime, Double(frame.pts) * frame.timeBase.doubleValue) }
        guard let format, let glyphs, let blend, frame.pts != SampleBuffer.noTime else { return try output.send(consume frame) }
        let on = cuesOn(at: Double(frame.pts) * frame.timeBase.doubleValue)
        // layouts of cues no longer on are dropped when the cues on change, not on every frame
        if layouts.count != on.count || !on.allSatisfy({ layouts[$0] != nil }) { layouts = layouts.filter { on.contains($0.key) } }
        guard !on.isEmpty else { return try output.send(consume frame) }
        // every line of every cue on, with its top edge; bottom cues placed from the bottom up,
        // top cues from the top down; drawn cue by cue (earliest first), each cue's lines top to
        // bottom: where an outline overlaps the line above, it is drawn over it, as a drawtext
        // per line in reading order draws them
        var placed: [(layout: TextLayout, top: Int)] = []
        var bottom = format.height - margin, top = margin
        for k in on {
            let lines: [TextLayout]
            if let known = layouts[k] { lines = known } else {
                do { lines = try cues[k].lines.map { try TextLayout($0, glyphs: glyphs, lineSpacing: 0, tabSize: 1) } } catch {
                    throw NodeFailure("\(error)")
                }
                layouts[k] = lines
            }
            if cues[k].atTop {
                for line in lines {
                    placed.append((line, top))
                    top += line.height
                }
            } else {
                bottom -= lines.reduce(0) { $0 + $1.height }
                var y = bottom
                for line in lines {
                    placed.append((line, y))
                    y += line.height
                }
            }
        }
        let width = format.width, border = border
        try output.sendTransformed(consume frame) { src, dst, inPlace in
            if !inPlace { DrawTextNode.copyPixels(src, dst) }
            for (line, top) in placed {
                // C's (w - text_w) / 2 in double, then toward zero, as drawtext's x
                let left = DrawTextNode.pixel(Double(width - line.width) / 2)
                if border > 0 { DrawTextNode.draw(line, glyphs, blend.border, dst, left, top, outline: border) }
                DrawTextNode.draw(line, glyphs, blend.text, dst, left, top, outline: nil)
            }
        }
    }
}
