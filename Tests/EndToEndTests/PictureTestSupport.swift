import Foundation
import Testing

/// Helpers for the picture tests: ffmpeg decodes pictures and frames to raw bytes, and PSNR is
/// computed here from those bytes (the formula, not our own earlier output).
enum PictureCheck {
    /// `file` decoded by ffmpeg to raw `pixfmt` (the first frame, or frame `frame` of a video).
    static func raw(_ file: String, pixfmt: String, frame: Int? = nil) throws -> Data {
        let out = CLI.tempDir() + "/raw"
        var args = ["-v", "error", "-y", "-i", file]
        if let frame { args += ["-vf", "select=eq(n\\,\(frame))"] }
        args += ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", pixfmt, out]
        let r = try CLI.run("ffmpeg", args)
        #expect(r.status == 0, "ffmpeg could not decode \(file): \(r.stderr)")
        return FileManager.default.contents(atPath: out) ?? Data()
    }

    /// PSNR in dB of two 8-bit pictures of equal size (infinity when identical).
    static func psnr(_ a: Data, _ b: Data) -> Double {
        guard a.count == b.count, !a.isEmpty else { return -1 }
        var sum = 0.0
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                for i in 0..<a.count {
                    let d = Double(pa[i]) - Double(pb[i])
                    sum += d * d
                }
            }
        }
        if sum == 0 { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.count)))
    }

    /// The mean of 8-bit samples, 0…1.
    static func mean(_ a: Data) -> Double {
        guard !a.isEmpty else { return 0 }
        return Double(a.reduce(0) { $0 + Int($1) }) / Double(a.count) / 255
    }

    /// Files in `dir` whose names start with `prefix`, sorted.
    static func files(_ dir: String, prefix: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// ffmpeg's `-f framemd5` lines of `input` as `pixfmt` (hashes only, in order).
    static func frameMD5(_ input: [String], pixfmt: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error"] + input + ["-f", "framemd5", "-pix_fmt", pixfmt, "-"])
        #expect(r.status == 0, "\(r.stderr)")
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// Our `framehash` file's hashes, in order.
    static func frameHashes(_ path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
