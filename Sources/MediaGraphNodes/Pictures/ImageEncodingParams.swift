import MediaGraphCodecs
import MediaGraphCore

/// The picture-encoding params the `snapshot` and `imageseqsink` nodes share, declared once.
enum ImageEncodingParams {
    static let format = Param<String>("format", oneOf: ["auto"] + StillImageFormat.allCases.map(\.rawValue), default: "auto",
                                      doc: "picture format; auto: from the path's extension (.png, .jpg/.jpeg, .webp)")
    static let quality = Param<Int>("quality", StillImageSettings.qualityRange, default: 90,
                                    doc: "1–100, higher is better: JPEG (mapped to qscale 31…1) and lossy WebP")
    static let lossless = Param<Bool>("lossless", default: false, doc: "WebP: lossless")
    static let fullChroma = Param<Bool>("full-chroma", default: false, doc: "JPEG: chroma at full resolution (4:4:4) instead of 4:2:0")
    static let effort = Param<Int?>("effort", StillImageSettings.effortRange,
                                    doc: "smaller files for more time: PNG's zlib level 0–9, WebP's method 0–6 (higher values clamp to 6)")
    static let width = Param<Int?>("width", 1...16384, doc: "picture width (scaled, bicubic); default: the frame's")
    static let height = Param<Int?>("height", 1...16384, doc: "picture height (scaled, bicubic); default: the frame's")

    static let all: [any ParamDeclaration] = [format, quality, lossless, fullChroma, effort, width, height]

    /// The settings the params give, for the file pattern `path` (which picks the format when
    /// `format` is auto). Errors name the param.
    static func settings(_ p: ParamValues, path: String, pathParam: String) throws -> StillImageSettings {
        let chosen = p[format]
        let f: StillImageFormat
        if chosen == "auto" {
            guard let fromName = StillImageFormat(fileName: path) else {
                throw NodeFailure("param '\(pathParam)': cannot tell the picture format from '\(path)': expected a name ending in .png, .jpg, .jpeg or .webp, or set param 'format'")
            }
            f = fromName
        } else {
            f = StillImageFormat(rawValue: chosen) ?? .png
        }
        if (p[width] == nil) != (p[height] == nil) {
            throw NodeFailure("params 'width' and 'height': give both or neither (found only '\(p[width] == nil ? "height" : "width")')")
        }
        return StillImageSettings(format: f, quality: p[quality], lossless: p[lossless], fullChroma: p[fullChroma],
                                  effort: p[effort], width: p[width], height: p[height])
    }

    /// Frames the encoders take (every pixel format MediaGraph has).
    static let inputFormats: [PixelFormat] = PixelFormat.allCases
}
