import MediaGraphCore
import MediaGraphKernels

/// `curves`: tone curves through points per channel and a master curve after them, with ffmpeg's
/// presets (ffmpeg's `curves` filter; Photoshop's curves dialog).
public final class CurvesFilter: KernelFilter, RegisteredNode {
    /// ffmpeg's presets, in its order: points for red, green, blue and master (nil: not set).
    static let presets: [(name: String, red: String?, green: String?, blue: String?, master: String?)] = [
        ("none", nil, nil, nil, nil),
        ("color_negative", "0.129/1 0.466/0.498 0.725/0", "0.109/1 0.301/0.498 0.517/0", "0.098/1 0.235/0.498 0.423/0", nil),
        ("cross_process", "0/0 0.25/0.156 0.501/0.501 0.686/0.745 1/1", "0/0 0.25/0.188 0.38/0.501 0.745/0.815 1/0.815",
         "0/0 0.231/0.094 0.709/0.874 1/1", nil),
        ("darker", nil, nil, nil, "0/0 0.5/0.4 1/1"),
        ("increase_contrast", nil, nil, nil, "0/0 0.149/0.066 0.831/0.905 0.905/0.98 1/1"),
        ("lighter", nil, nil, nil, "0/0 0.4/0.5 1/1"),
        ("linear_contrast", nil, nil, nil, "0/0 0.305/0.286 0.694/0.713 1/1"),
        ("medium_contrast", nil, nil, nil, "0/0 0.286/0.219 0.639/0.643 1/1"),
        ("negative", nil, nil, nil, "0/1 1/0"),
        ("strong_contrast", nil, nil, nil, "0/0 0.301/0.196 0.592/0.6 0.686/0.737 1/1"),
        ("vintage", "0/0.11 0.42/0.51 1/0.95", "0/0 0.50/0.48 1/1", "0/0.22 0.49/0.44 1/0.8", nil),
    ]

    static let pointsDoc = "points \"x/y x/y …\" (each 0…1, x increasing, at least 1/255 apart)"
    static let preset = Param<String>("preset", oneOf: presets.map(\.name), default: "none",
                                      doc: "ffmpeg's preset curves; the curves given here replace the preset's")
    static let master = Param<String?>("master", doc: "master curve, applied to red, green and blue after their own: \(pointsDoc)")
    static let red = Param<String?>("red", doc: "red curve: \(pointsDoc)")
    static let green = Param<String?>("green", doc: "green curve: \(pointsDoc)")
    static let blue = Param<String?>("blue", doc: "blue curve: \(pointsDoc)")
    static let all = Param<String?>("all", doc: "curve for red, green and blue where they are not given: \(pointsDoc)")
    static let psfile = Param<String?>.path("psfile", role: .input,
                                            doc: "Photoshop curves file (.acv): its composite curve as master, then red, green and blue; curves given here replace its, it replaces the preset's")

    public static let typeInfo = filterInfo(
        "curves", "Tone curves as ffmpeg's curves and Photoshop: a natural cubic spline through the points of each channel, then the master curve (alpha kept).",
        formats: ChannelCurvesKernel.formats, params: [preset, master, red, green, blue, all, psfile])

    override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
        var photoshop: PhotoshopCurves?
        if let path = p[psfile] {
            do { photoshop = try PhotoshopCurves(contentsOfFile: path) } catch { throw NodeFailure("param 'psfile': \(error)") }
        }
        return ChannelCurvesKernel(try curves(preset: p[preset], red: p[red], green: p[green], blue: p[blue], all: p[all],
                                              master: p[master], photoshop: photoshop))
    }

    /// The tables of one of ffmpeg's presets (a `preset` value), with curves given as points
    /// strings, or read from a Photoshop curves file, in place of the preset's, as ffmpeg orders
    /// them: a channel's own points, else `all`, else the file's, else the preset's.
    public static func curves(preset name: String, red r: String? = nil, green g: String? = nil, blue b: String? = nil,
                              all a: String? = nil, master m: String? = nil, photoshop: PhotoshopCurves? = nil) throws -> ChannelCurves {
        guard let chosen = presets.first(where: { $0.name == name }) else {
            throw NodeFailure("param 'preset': '\(name)' is not one of " + presets.map(\.name).joined(separator: ", "))
        }
        let channels = try [(r, red.name, photoshop?.red, chosen.red), (g, green.name, photoshop?.green, chosen.green),
                            (b, blue.name, photoshop?.blue, chosen.blue)].map { given, param, fromFile, fromPreset in
            if let given { return try curve(given, param: param) }
            if let a { return try curve(a, param: all.name) }
            if let fromFile { return fromFile }
            return try curve(fromPreset ?? "", param: preset.name)
        }
        let masterCurve = try m.map { try curve($0, param: master.name) } ?? photoshop?.master
            ?? chosen.master.map { try curve($0, param: preset.name) }
        return .toneCurves(red: channels[0], green: channels[1], blue: channels[2], master: masterCurve)
    }

    /// The curve of a points param: "x/y" pairs separated by white space.
    static func curve(_ text: String, param: String) throws -> ToneCurve {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        let points = try tokens.enumerated().map { k, token -> ToneCurve.Point in
            let parts = token.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else {
                throw NodeFailure("param '\(param)': point \(k + 1) '\(token)': expected x/y, two numbers joined by '/' (points separated by spaces)")
            }
            return ToneCurve.Point(x: x, y: y)
        }
        do {
            return try ToneCurve(points, name: param)
        } catch let KernelError.invalidParameter(name, detail) {
            throw NodeFailure("param '\(name)': \(detail)")
        }
    }
}
