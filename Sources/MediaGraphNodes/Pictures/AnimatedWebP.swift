import Foundation

/// Animated WebP files: libavcodec (5.1, Debian 12's) decodes only still WebP pictures, and
/// libavformat reports an animation as a picture of no size, which would otherwise read as a
/// damaged file.
enum AnimatedWebP {
    /// Whether the file at `path` starts as an extended WebP with the animation flag set (RIFF
    /// "WEBP", a "VP8X" chunk first, bit 1 of its flags byte).
    static func isAnimated(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 21), head.count == 21 else { return false }
        let bytes = [UInt8](head)
        return bytes[0..<4] == [0x52, 0x49, 0x46, 0x46] && bytes[8..<16] == [0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x58]
            && bytes[20] & 0x02 != 0
    }

    /// The message for a picture whose size could not be read: an animated WebP said as such.
    static func problem(_ path: String) -> String? {
        isAnimated(path) ? "'\(path)' is an animated WebP, which libavcodec cannot decode (it reads still WebP pictures only); give a still picture, or convert the animation to a video file first" : nil
    }
}
