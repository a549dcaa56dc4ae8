import MediaGraphCodecs
import MediaGraphCore

/// A problem with `ThumbnailOptions` themselves, found before the video is opened: a command
/// line reports it as bad arguments (exit 2), apart from a file that cannot be read (exit 1).
public struct ThumbnailOptionsError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ThumbnailOptions {
    /// What `ThumbnailMaker` needs from options that passed `check`.
    struct Checked {
        var pattern: ImageNamePattern?
        var format: StillImageFormat?
    }

    /// Throws `ThumbnailOptionsError` for the first problem the options have on their own — a
    /// count out of range, nothing to write, an output pattern that is not one or gives every
    /// picture the same name, a picture or sheet format that the file name does not tell,
    /// columns out of range. Reads and writes nothing.
    public func check() throws {
        _ = try checked()
    }

    func checked() throws -> Checked {
        guard Self.countRange.contains(count) else {
            throw ThumbnailOptionsError("thumbnails: count: expected 1...1000, found \(count)")
        }
        guard pattern != nil || sheetPath != nil else {
            throw ThumbnailOptionsError("thumbnails: nothing to write: give an output pattern or a contact sheet")
        }
        var checked = Checked()
        if let text = pattern {
            let p: ImageNamePattern
            do { p = try ImageNamePattern(text, param: "output") } catch { throw ThumbnailOptionsError("thumbnails: \(error)") }
            if !p.varies && count > 1 {
                throw ThumbnailOptionsError("thumbnails: output '\(text)' has no %d or %t field: every picture would get the same name")
            }
            guard let f = StillImageFormat(fileName: text) else {
                throw ThumbnailOptionsError("thumbnails: cannot tell the picture format from '\(text)': expected .png, .jpg, .jpeg or .webp")
            }
            checked.pattern = p
            checked.format = f
        }
        if let sheetPath {
            guard StillImageFormat(fileName: sheetPath) != nil else {
                throw ThumbnailOptionsError("thumbnails: cannot tell the sheet's format from '\(sheetPath)': expected .png, .jpg, .jpeg or .webp")
            }
            guard (1...100).contains(columns) else { throw ThumbnailOptionsError("thumbnails: columns: expected 1...100, found \(columns)") }
        }
        return checked
    }
}
