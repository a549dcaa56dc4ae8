import MediaGraphCore

/// Reads a YUV4MPEG2 stream: the header line (`Y4MHeader`), then per frame a `FRAME` line and
/// the packed planes. Everything the header declares is checked against `MediaLimits` before a
/// frame is allocated; a truncated frame is an error naming the frame and byte offset.
public final class Y4MReader {
    /// Size, rate, aspect, range, chroma siting and pixel format from the header.
    public let format: VideoFormat
    let file: InputFile
    /// Frames read so far.
    public private(set) var frameIndex = 0

    /// Opens the file at `path` ("-" for standard input) and reads its header.
    public convenience init(path: String) throws {
        try self.init(file: InputFile(path: path))
    }

    /// Reads a Y4M stream held in memory; `name` stands for the file in error messages. (The same
    /// parser as for files: the entry point for fuzzing.)
    public convenience init(bytes: [UInt8], name: String = "memory") throws {
        try self.init(file: InputFile(bytes: bytes, name: name))
    }

    init(file: InputFile) throws {
        self.file = file
        guard let line = try file.readLine(limit: 4096) else {
            throw NodeFailure("\(file.displayName) is empty: expected a YUV4MPEG2 header")
        }
        let h = try Y4MHeader.parse(line, source: file.displayName)
        // Odd sizes with subsampled chroma: the chroma planes round up, as ffmpeg does.
        format = VideoFormat(pixelFormat: h.pixelFormat, width: h.width, height: h.height, frameRate: h.rate,
                             range: h.range, color: VideoColor(chromaLocation: h.chromaLocation), sampleAspect: h.aspect)
    }

    /// The next frame (a pooled buffer, pts = its index in frame ticks), or nil at the end.
    public func next() throws -> SampleBuffer? {
        let at = file.offset
        guard let line = try file.readLine(limit: 1024) else { return nil }
        guard line.count >= 5, String(decoding: line.prefix(5), as: UTF8.self) == "FRAME" else {
            throw NodeFailure("\(file.displayName): frame \(frameIndex) at byte \(at): expected \"FRAME\", found \"\(String(decoding: line.prefix(16), as: UTF8.self))\"")
        }
        let buffer = try FrameIO.readFrame(file, format: format, index: frameIndex)
        frameIndex += 1
        return buffer
    }
}
