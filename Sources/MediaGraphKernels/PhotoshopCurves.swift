import Foundation
import MediaGraphCore

/// Why a Photoshop curves file was refused: the file, the byte offset (nil when the file could not
/// be read), what was expected there.
public struct CurvesFileError: Error, Equatable, CustomStringConvertible {
    public var file: String, offset: Int?, message: String
    public var description: String { offset.map { "\(file): byte \($0): \(message)" } ?? "\(file): \(message)" }
}

/// The curves of a Photoshop curves file (.acv), as ffmpeg's `curves` reads them (`psfile`): a
/// big-endian 16-bit version and curve count, then per curve a point count and (output, input)
/// pairs on 0…255; the first curve is the composite one (master), then red, green and blue;
/// further curves are ignored, and a curve without points leaves its channel unset.
public struct PhotoshopCurves: Equatable, Sendable {
    public var master: ToneCurve?, red: ToneCurve?, green: ToneCurve?, blue: ToneCurve?

    /// A real file is a few hundred bytes; this bounds what a hostile path makes us read.
    public static let maxFileSize = 65536
    static let names = ["master", "red", "green", "blue"]

    /// Reads and parses the file at `path`; errors name `path` and the byte offset.
    public init(contentsOfFile path: String) throws {
        let bytes: [UInt8]
        do {
            bytes = try SmallFileReader.read(path, limit: Self.maxFileSize)
        } catch {
            let why = error.message(for: "curves file")
            throw CurvesFileError(file: path, offset: nil, message: why)
        }
        try self.init(parsing: bytes, file: path)
    }

    /// Parses the bytes of a curves file; `file` is the name used in errors. (The entry point for
    /// fuzzing: the same parser as for files.)
    public init(parsing bytes: [UInt8], file: String) throws {
        var at = 0
        func read(_ what: String) throws -> Int {
            guard at + 2 <= bytes.count else {
                throw CurvesFileError(file: file, offset: at, message: "the file ends where \(what) should be (2 bytes, \(bytes.count - at) left)")
            }
            defer { at += 2 }
            return Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        _ = try read("the version")
        let count = try read("the number of curves")
        var curves: [ToneCurve?] = [nil, nil, nil, nil]
        for k in 0..<min(count, 4) {
            let points = try read("curve \(k + 1)'s number of points")
            var list: [ToneCurve.Point] = []
            for n in 0..<points {
                let start = at
                let y = try read("curve \(k + 1)'s point \(n + 1) output"), x = try read("curve \(k + 1)'s point \(n + 1) input")
                guard x <= 255, y <= 255 else {
                    throw CurvesFileError(file: file, offset: start, message: "curve \(k + 1) (\(Self.names[k])), point \(n + 1): input \(x), output \(y); both must be 0…255")
                }
                // ffmpeg passes the points on as "%f" text: the same rounding of x/255 places each
                // point on the same input byte
                list.append(ToneCurve.Point(x: Self.sixDecimals(x), y: Self.sixDecimals(y)))
            }
            guard !list.isEmpty else { continue }
            do {
                curves[k] = try ToneCurve(list, name: Self.names[k])
            } catch KernelError.invalidParameter(_, let detail) {
                throw CurvesFileError(file: file, offset: at, message: "curve \(k + 1) (\(Self.names[k])): \(detail)")
            }
        }
        (master, red, green, blue) = (curves[0], curves[1], curves[2], curves[3])
    }

    static func sixDecimals(_ v: Int) -> Double { Double(String(format: "%f", Double(v) / 255))! }
}
