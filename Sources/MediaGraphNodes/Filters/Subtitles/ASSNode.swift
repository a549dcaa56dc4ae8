import Foundation
import MediaGraphCore
import MediaGraphKernels
import MediaGraphCodecs

/// `ass`: burns an ASS/SSA script into the picture with libass, as ffmpeg 5.1's `ass` filter:
/// all of the script's styling (fonts, colours, positions, \pos, \move, fades, karaoke,
/// borders, shadows, rotation) is libass's; each bitmap libass renders is blended with its
/// colour by the same arithmetic as drawtext's glyphs (`MaskBlend`, ffmpeg's drawutils), so
/// the frames are ffmpeg's bytes. The file is read whole when the graph is built (at most
/// 16 MiB); libass's warnings are shown with the node's name.
public final class ASSNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "ass",
        doc: "Burns an ASS/SSA subtitle script into the video with libass (ffmpeg's ass filter, the same bytes): the script's own styles, positions, fades, karaoke, borders and shadows; fonts by name from fontconfig and 'fonts-dir'.",
        category: .filter,
        inputs: [PortSpec("in", .video(DrawTextNode.formats), doc: "raw video")],
        outputs: [PortSpec("out", .video(DrawTextNode.formats), doc: "the frames with the script's events that are on (in place when possible)")],
        params: ParamSpec.list(pathParam, fontsDirParam, shapingParam, alphaParam, originalSizeParam))

    static let pathParam = Param<String>.requiredPath("path", role: .input, doc: "the .ass or .ssa script (UTF-8, as libass reads it)")
    static let fontsDirParam = Param<String?>.path("fonts-dir", role: .input, doc: "a directory of font files the script may name, beside the system's fonts (ffmpeg's fontsdir)")
    static let shapingParam = Param<String>("shaping", oneOf: ASSRenderer.Shaping.allCases.map(\.rawValue), default: "auto",
                                            doc: "libass's text shaping: auto (its default, complex), simple (faster, no ligatures or complex scripts) or complex")
    static let alphaParam = Param<Bool>("alpha", default: false, doc: "rgba/bgra: blend the alpha bytes toward the subtitles' opacity too (ffmpeg's alpha=1); by default they are left alone")
    static let originalSizeParam = Param<String?>("original-size", doc: "WxH: the size of the video the script was made for, when it is drawn on a scaled copy (ffmpeg's original_size): fonts keep their size relative to the picture")

    /// The script is read whole, once; a script is kilobytes to a few megabytes.
    static let fileLimit = 16 << 20

    let script: ASSRenderer
    let path: String
    let shaping: ASSRenderer.Shaping
    let blendsAlpha: Bool
    let originalSize: (width: Int, height: Int)?
    public let validationWarnings: [String]

    var format: VideoFormat?
    /// The blend colours of the libass colours seen so far (a script has a handful).
    var colors: [UInt32: BlendColor] = [:]

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let path = p[Self.pathParam]
        self.path = path
        let bytes: [UInt8]
        do { bytes = try SmallFileReader.read(path, limit: Self.fileLimit, regularFileOnly: true) } catch {
            throw NodeFailure("param 'path' (\(path)): \(error.message(for: "subtitle script"))")
        }
        // libass passes over a fonts directory it cannot read without a word
        if let dir = p[Self.fontsDirParam] {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory)
            guard exists, isDirectory.boolValue else {
                throw NodeFailure("param 'fonts-dir' (\(dir)): expected a directory of font files, found \(exists ? "a file" : "nothing")")
            }
        }
        do { script = try ASSRenderer(script: bytes, fontsDir: p[Self.fontsDirParam]) } catch {
            throw NodeFailure("param 'path' (\(path)): \(error)")
        }
        shaping = ASSRenderer.Shaping(rawValue: p[Self.shapingParam]) ?? .auto
        blendsAlpha = p[Self.alphaParam]
        originalSize = try p[Self.originalSizeParam].map { try Self.size($0) }
        let said = script.messages.take()
        if let error = said.first(where: \.isError) { throw NodeFailure("param 'path' (\(path)): libass: \(error.text)") }
        var warnings = said.map { "\(path): libass: \($0.text)" }
        if script.eventCount == 0 { warnings.append("\(path): the script has no Dialogue events; nothing is drawn") }
        validationWarnings = warnings
    }

    /// "WxH" with each side 1…16384.
    static func size(_ text: String) throws -> (width: Int, height: Int) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
            throw NodeFailure("param 'original-size': expected WxH with each side 1…16384 (such as 1920x1080), found '\(text)'")
        }
        return (w, h)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        format = v
        colors = [:]
        let play = script.playResolution
        let scale = max(Double(v.width) / Double(play.x > 0 ? play.x : 384), Double(v.height) / Double(play.y > 0 ? play.y : 288))
        let aspect = originalSize.map { Double(v.width) / Double(v.height) / (Double($0.width) / Double($0.height)) } ?? 1
        do { try ASSRenderBounds.check(script, scale: scale, aspect: aspect) } catch {
            throw NodeFailure("param 'path' (\(path)): \(error)")
        }
        script.configure(width: v.width, height: v.height, originalSize: originalSize, shaping: shaping)
        return [inputs[0].format]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let format, let time = Self.milliseconds(frame.pts, frame.timeBase) else { return try output.send(consume frame) }
        var images: [ASSRenderer.Image] = []
        script.render(milliseconds: time) { images.append($0) }
        guard !images.isEmpty else { return try output.send(consume frame) }
        let blends = images.map { blendColor($0.color, format) }
        try output.sendTransformed(consume frame) { src, dst, inPlace in
            if !inPlace { DrawTextNode.copyPixels(src, dst) }
            for (image, color) in zip(images, blends) {
                MaskBlend.blend(color, into: dst, mask: image.bitmap, maskStride: image.stride,
                                width: image.width, height: image.height, x: image.x, y: image.y)
            }
        }
    }

    /// The time ffmpeg's filter gives libass: pts × time base × 1000 in double, then C's
    /// conversion to an integer (toward zero); none for a frame without a time or beyond any.
    static func milliseconds(_ pts: Int64, _ timeBase: Rational) -> Int64? {
        guard pts != SampleBuffer.noTime else { return nil }
        let ms = Double(pts) * timeBase.doubleValue * 1000
        guard ms.isFinite, abs(ms) < 9e18 else { return nil }
        return Int64(ms.rounded(.towardZero))
    }

    /// libass's RRGGBBTT (TT transparency) as a colour to blend: opacity 255 − TT; with
    /// `alpha` on packed RGBA the alpha byte is a fourth component, blended toward that opacity.
    func blendColor(_ rgbt: UInt32, _ format: VideoFormat) -> BlendColor {
        if let known = colors[rgbt] { return known }
        let opacity = UInt8(255 - (rgbt & 0xff))
        var c = BlendColor(RGBAColor(red: UInt8(rgbt >> 24), green: UInt8((rgbt >> 16) & 0xff), blue: UInt8((rgbt >> 8) & 0xff),
                                     alpha: opacity), for: format)
        if blendsAlpha, !c.packedOffsets.isEmpty {
            c.values.append(opacity)
            c.packedOffsets.append(3)
        }
        colors[rgbt] = c
        return c
    }

    /// What libass said while rendering (its messages while reading were taken in `init`).
    public var runWarnings: [String] {
        script.messages.current.map { "\(path): libass: \($0.text)" + ($0.count > 1 ? " (\($0.count) times)" : "") }
    }
}
