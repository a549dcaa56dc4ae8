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

    /// Parses the header line (without the trailing newline; it starts at byte 0 of the file);
    /// `source` names the file in errors, which give the byte offset of the field. Sizes are
    /// checked against `MediaLimits`, rate and aspect terms against `MediaLimits.maxRateTerm`.
    static func parse(_ line: [UInt8], source: String) throws -> Y4MHeader {
        // Fields with the byte offset where each starts.
        var fields: [(at: Int, text: Substring)] = []
        var i = 0
        while i < line.count {
            while i < line.count && line[i] == 0x20 { i += 1 }
            let s = i
            while i < line.count && line[i] != 0x20 { i += 1 }
            if s < i { fields.append((s, Substring(String(decoding: line[s..<i], as: UTF8.self)))) }
        }
        guard fields.first?.text == "YUV4MPEG2" else {
            let shown = String(decoding: line.prefix(20), as: UTF8.self)
            throw NodeFailure("\(source) is not a YUV4MPEG2 file: it starts with \"\(shown)\", expected \"YUV4MPEG2 \"")
        }
        func fail(_ at: Int, _ message: String) -> NodeFailure { NodeFailure("\(source): byte \(at): \(message)") }
        /// `<num>:<den>` as two integers ≥ 0, or nil if it is not that.
        func ratio(_ v: Substring) -> (Int64, Int64)? {
            let parts = v.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), n >= 0, d >= 0 else { return nil }
            return (n, d)
        }
        func checkTerms(_ at: Int, _ f: Substring, _ what: String, _ n: Int64, _ d: Int64) throws {
            guard n <= MediaLimits.maxRateTerm, d <= MediaLimits.maxRateTerm else {
                throw fail(at, "\(what) '\(f)' in the YUV4MPEG2 header has a term above the limit of \(MediaLimits.maxRateTerm)")
            }
        }
        var w: Int?, h: Int?
        var wAt = 0
        // no A (or A0:0) is an unknown aspect and no XCOLORRANGE an unspecified range, as ffmpeg reads them
        var rate = Rational(25, 1), aspect = Rational(0, 1)
        var cs = "420jpeg"
        var csAt = 0
        var range = ColorRange.unspecified
        for (at, f) in fields.dropFirst() {
            guard let tag = f.first else { continue }
            let value = f.dropFirst()
            switch tag {
            case "W":
                guard let v = Int(value), v > 0 else { throw fail(at, "bad width '\(f)' in the YUV4MPEG2 header (expected W and a positive integer)") }
                guard v <= MediaLimits.maxDimension else { throw fail(at, "width '\(f)' in the YUV4MPEG2 header is above the limit of \(MediaLimits.maxDimension)") }
                w = v
                wAt = at
            case "H":
                guard let v = Int(value), v > 0 else { throw fail(at, "bad height '\(f)' in the YUV4MPEG2 header (expected H and a positive integer)") }
                guard v <= MediaLimits.maxDimension else { throw fail(at, "height '\(f)' in the YUV4MPEG2 header is above the limit of \(MediaLimits.maxDimension)") }
                h = v
            case "F":
                guard let (n, d) = ratio(value), n > 0, d > 0 else {
                    throw fail(at, "bad frame rate '\(f)' in the YUV4MPEG2 header (expected F<num>:<den>, e.g. F30:1)")
                }
                try checkTerms(at, f, "frame rate", n, d)
                rate = Rational(n, d)
            case "A":
                // A0:0 means unknown; anything else must be a ratio of 32-bit terms.
                guard let (n, d) = ratio(value) else {
                    throw fail(at, "bad pixel aspect '\(f)' in the YUV4MPEG2 header (expected A<num>:<den>, e.g. A1:1, or A0:0 for unknown)")
                }
                try checkTerms(at, f, "pixel aspect", n, d)
                if n > 0 && d > 0 { aspect = Rational(n, d) }
            case "I":
                guard value == "p" || value == "?" else {
                    throw fail(at, "interlaced Y4M ('\(f)') is not supported; only progressive (Ip)")
                }
            case "C":
                cs = String(value)
                csAt = at
            case "X":
                if value == "COLORRANGE=FULL" { range = .full }
                if value == "COLORRANGE=LIMITED" { range = .limited }
            default:
                break
            }
        }
        guard let w else { throw NodeFailure("\(source): the YUV4MPEG2 header has no width (W)") }
        guard let h else { throw NodeFailure("\(source): the YUV4MPEG2 header has no height (H)") }
        if let problem = MediaLimits.frameSizeProblem(width: w, height: h) {
            throw fail(wAt, "\(problem) (W and H in the YUV4MPEG2 header)")
        }
        let pf: PixelFormat
        switch cs {
        case "420jpeg", "420mpeg2", "420paldv", "420": pf = .yuv420p
        case "422": pf = .yuv422p
        case "444": pf = .yuv444p
        case "mono": pf = .gray
        default:
            throw fail(csAt, "colour space 'C\(cs)' is not supported; expected C420jpeg, C420mpeg2, C420paldv, C422, C444 or Cmono (8-bit)")
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
