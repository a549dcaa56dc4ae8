import CFreeType

/// Finds a font file by family name with fontconfig, as ffmpeg's drawtext does when it has no
/// font file ("Sans" by default; fontconfig's own substitutions apply, so any installed family
/// gives a file).
public enum FontLookup {
    /// The file and face index fontconfig matches to `family` ("Sans", "DejaVu Serif:bold", …),
    /// and the match's size (fontconfig's default, 12, unless the name gives one), which ffmpeg
    /// takes as the pixel size when none is given.
    public static func file(family: String) throws -> (path: String, index: Int, size: Int) {
        guard let config = FcInitLoadConfigAndFonts() else { throw FontError("fontconfig could not start") }
        defer { FcConfigDestroy(config) }
        // the name is a fontconfig pattern: "Family:style=Bold" works as on the command line
        guard let pattern = FcNameParse(family) else { throw FontError("'\(family)' is not a fontconfig font name") }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let best = FcFontMatch(config, pattern, &result), result == FcResultMatch else {
            throw FontError("no installed font matches '\(family)' (fc-list shows what is installed)")
        }
        defer { FcPatternDestroy(best) }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        guard FcPatternGetString(best, "file", 0, &file) == FcResultMatch, let file else {
            throw FontError("fontconfig matched '\(family)' to a font without a file")
        }
        _ = FcPatternGetInteger(best, "index", 0, &index)
        var size = 12.0
        _ = FcPatternGetDouble(best, "size", 0, &size)
        return (String(cString: file), Int(index), Int(max(1, min(1000, size + 0.5))))
    }
}
