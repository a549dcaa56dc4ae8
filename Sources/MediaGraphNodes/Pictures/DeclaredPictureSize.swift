import Foundation
import MediaGraphCore

/// The size a PNG or JPEG header declares, read from the file itself: libavformat reports a
/// picture whose size libavcodec refuses (100000x100000) as one of no size, which would otherwise
/// read as a damaged file.
enum DeclaredPictureSize {
    /// Bytes read at most to find a JPEG's frame header (markers before it: EXIF, ICC…).
    static let maxHeaderBytes = 256 << 10

    /// Width and height from a PNG's IHDR chunk or a JPEG's SOF marker; nil for anything else.
    static func read(_ path: String) -> (width: Int, height: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: maxHeaderBytes) else { return nil }
        let b = [UInt8](head)
        func be(_ at: Int, _ n: Int) -> Int { (at..<at + n).reduce(0) { $0 << 8 | Int(b[$1]) } }
        // PNG: the 8-byte signature, then IHDR (length, "IHDR", width, height)
        if b.count >= 24, b[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], b[12..<16] == [0x49, 0x48, 0x44, 0x52] {
            return (be(16, 4), be(20, 4))
        }
        // JPEG: SOI, then segments (FF marker, 2-byte length) up to a start of frame
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var at = 2
        while at + 9 <= b.count, b[at] == 0xFF {
            let marker = b[at + 1]
            if marker == 0xFF { at += 1; continue }   // fill byte
            // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC)
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be(at + 7, 2), be(at + 5, 2))
            }
            at += 2 + be(at + 2, 2)
        }
        return nil
    }

    /// The message for a picture whose size libavformat did not give: the size it declares and
    /// why that is refused, when the header says so.
    static func problem(_ path: String) -> String? {
        guard let (width, height) = read(path), let problem = MediaLimits.frameSizeProblem(width: width, height: height) else { return nil }
        return "'\(path)' declares a picture of \(width)x\(height): \(problem)"
    }
}
