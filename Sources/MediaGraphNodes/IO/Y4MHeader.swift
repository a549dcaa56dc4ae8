import MediaGraphCore

/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W1280 H720 F30:1 Ip A1:1 C420jpeg`.
struct Y4MHeader {
    var width: Int
    var height: Int
    var rate: Rational
    var aspect: Rational
    var pixelFormat: PixelFormat
    var range: ColorRange
    var colorspaceTag: String

    /// Parses the header line (without the trailing newline); `source` names the file in errors.
    static func parse(_ line: [UInt8], source: String) throws -> Y4MHeader {
        let text = String(decoding: line, as: UTF8.self)
        let fields = text.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.first == "YUV4MPEG2" else {
            let shown = text.prefix(20)
            throw NodeFailure("\(source) is not a YUV4MPEG2 file: it starts with \"\(shown)\", expected \"YUV4MPEG2 \"")
        }
        var w: Int?, h: Int?
        // no A (or A0:0) is an unknown aspect and no XCOLORRANGE an unspecified range, as ffmpeg reads them
        var rate = Rational(25, 1), aspect = Rational(0, 1)
        var cs = "420jpeg"
        var range = ColorRange.unspecified
        for f in fields.dropFirst() {
            let tag = f.first!, value = String(f.dropFirst())
            switch tag {
            case "W":
                guard let v = Int(value), v > 0, v <= 32768 else { throw NodeFailure("\(source): bad width '\(f)' in the YUV4MPEG2 header (expected W and a positive integer)") }
                w = v
            case "H":
                guard let v = Int(value), v > 0, v <= 32768 else { throw NodeFailure("\(source): bad height '\(f)' in the YUV4MPEG2 header (expected H and a positive integer)") }
                h = v
            case "F":
                let parts = value.split(separator: ":")
                guard parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n > 0, d > 0 else {
                    throw NodeFailure("\(source): bad frame rate '\(f)' in the YUV4MPEG2 header (expected F<num>:<den>, e.g. F30:1)")
                }
                rate = Rational(n, d)
            case "A":
                let parts = value.split(separator: ":")
                if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n > 0, d > 0 { aspect = Rational(n, d) }
            case "I":
                guard value == "p" || value == "?" else {
                    throw NodeFailure("\(source): interlaced Y4M ('\(f)') is not supported; only progressive (Ip)")
                }
            case "C":
                cs = value
            case "X":
                if value == "COLORRANGE=FULL" { range = .full }
                if value == "COLORRANGE=LIMITED" { range = .limited }
            default:
                break
            }
        }
        guard let w else { throw NodeFailure("\(source): the YUV4MPEG2 header has no width (W)") }
        guard let h else { throw NodeFailure("\(source): the YUV4MPEG2 header has no height (H)") }
        let pf: PixelFormat
        switch cs {
        case "420jpeg", "420mpeg2", "420paldv", "420": pf = .yuv420p
        case "422": pf = .yuv422p
        case "444": pf = .yuv444p
        case "mono": pf = .gray
        default:
            throw NodeFailure("\(source): colour space 'C\(cs)' is not supported; expected C420jpeg, C420mpeg2, C420paldv, C422, C444 or Cmono (8-bit)")
        }
        return Y4MHeader(width: w, height: h, rate: rate, aspect: aspect, pixelFormat: pf, range: range, colorspaceTag: cs)
    }

    /// The header line ffmpeg writes for the same stream (without the newline): 4:2:0 chroma
    /// siting as the C tag, A0:0 for an unknown aspect, the range when it is known.
    static func format(_ f: VideoFormat) -> String {
        let cs: String
        switch f.pixelFormat {
        case .yuv420p: cs = chroma420Tag(f.color.chromaLocation)
        case .yuv422p: cs = "C422 XYSCSS=422"
        case .yuv444p: cs = "C444 XYSCSS=444"
        default: cs = "Cmono"
        }
        let a = f.sampleAspect.num > 0 && f.sampleAspect.den > 0 ? "\(f.sampleAspect.num):\(f.sampleAspect.den)" : "0:0"
        var s = "YUV4MPEG2 W\(f.width) H\(f.height) F\(f.frameRate.num):\(f.frameRate.den) Ip A\(a) \(cs)"
        if f.range == .full { s += " XCOLORRANGE=FULL" }
        if f.range == .limited { s += " XCOLORRANGE=LIMITED" }
        return s
    }
}
