import MediaGraphCore

/// One frame of an IVF file.
public struct IVFFrame: Sendable {
    public var data: [UInt8]
    /// Timestamp in the file's time base (`IVFReader.timeBase`).
    public var pts: Int64
    public var isKeyFrame: Bool
    /// Byte offset of the frame header in the file.
    public var offset: Int64
}

/// Reads VP8/VP9 frames from an IVF file (32-byte file header "DKIF", then per frame a 12-byte
/// header: size and 64-bit timestamp, little-endian).
public final class IVFReader {
    public let path: String
    public let codec: Codec
    public let width: Int
    public let height: Int
    /// Seconds per timestamp tick.
    public let timeBase: Rational
    public let declaredFrameCount: Int
    /// Profile, bit depth, chroma subsampling and colour from the first VP9 key frame (read the
    /// first frame before using it; VP8 has defaults).
    public private(set) var configuration: VPXConfiguration
    private let file: InputFile
    private var position = 0

    public init(path: String) throws {
        self.path = path
        file = try InputFile(path: path, capacity: 1 << 20)
        (codec, width, height, timeBase, declaredFrameCount, position) = try IVFReader.readHeader(file, path)
        configuration = VPXConfiguration(codec: codec)
    }

    /// Reads an IVF file held in memory; `name` stands for the file in error messages. (The same
    /// parser as for files: the entry point for fuzzing.)
    public init(bytes: [UInt8], name: String = "memory") throws {
        path = name
        file = InputFile(bytes: bytes, name: name, capacity: 1 << 20)
        (codec, width, height, timeBase, declaredFrameCount, position) = try IVFReader.readHeader(file, name)
        configuration = VPXConfiguration(codec: codec)
    }

    /// The 32-byte file header: codec, size, time base, frame count, and where frames start.
    private static func readHeader(_ file: InputFile, _ path: String) throws
        -> (Codec, Int, Int, Rational, Int, Int) {
        guard let h = try file.ensure(32, from: 0) else {
            throw ElementaryStreamError(path: path, offset: 0, message: "file is shorter than the 32-byte IVF header")
        }
        let p = file.buffer + h
        guard p[0] == 0x44, p[1] == 0x4B, p[2] == 0x49, p[3] == 0x46 else {
            throw ElementaryStreamError(path: path, offset: 0, message: "expected the IVF signature \"DKIF\"")
        }
        let headerSize = Int(IVFReader.le16(p + 6))
        let fourcc = String(decoding: UnsafeBufferPointer(start: p + 8, count: 4), as: UTF8.self)
        let codec: Codec
        switch fourcc {
        case "VP80": codec = .vp8
        case "VP90": codec = .vp9
        default:
            throw ElementaryStreamError(path: path, offset: 8, message: "expected codec VP80 or VP90, found \"\(fourcc)\"")
        }
        let width = Int(IVFReader.le16(p + 12)), height = Int(IVFReader.le16(p + 14))
        if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
            throw ElementaryStreamError(path: path, offset: 12, message: problem)
        }
        let rate = Int64(IVFReader.le32(p + 16)), scale = Int64(IVFReader.le32(p + 20))
        if let problem = MediaLimits.rateProblem("time base", num: scale, den: rate) {
            throw ElementaryStreamError(path: path, offset: 16, message: problem)
        }
        let frames = Int(IVFReader.le32(p + 24))
        guard headerSize >= 32 else {
            throw ElementaryStreamError(path: path, offset: 6, message: "header size \(headerSize) is below 32")
        }
        // A longer header (≤ 64 KiB) is skipped whole, so frames start right after it.
        guard let start = try file.ensure(headerSize, from: 0) else {
            throw ElementaryStreamError(path: path, offset: 6, message: "header size \(headerSize) is beyond the end of the file")
        }
        return (codec, width, height, Rational(scale, rate), frames, start + headerSize)
    }

    /// The next frame, or nil at the end of the file.
    public func next() throws -> IVFFrame? {
        guard let h = try file.ensure(12, from: position) else {
            let left = file.count - position
            if left > 0 {
                throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(position),
                                            message: "file ends inside a frame header (\(left) of 12 bytes)")
            }
            return nil
        }
        position = h
        let offset = file.bufferOffset + Int64(h)
        let size = Int(IVFReader.le32(file.buffer + h))
        let pts = Int64(bitPattern: UInt64(IVFReader.le32(file.buffer + h + 4)) | UInt64(IVFReader.le32(file.buffer + h + 8)) << 32)
        guard size > 0, size <= MediaLimits.maxIVFFrameSize else {
            throw ElementaryStreamError(path: path, offset: offset, message: "frame size \(size) is not in 1…\(MediaLimits.maxIVFFrameSize)")
        }
        guard let s = try file.ensure(12 + size, from: position) else {
            // ensure moved the frame header to the start of the buffer.
            throw ElementaryStreamError(path: path, offset: offset,
                                        message: "file ends inside a frame: header says \(size) bytes, \(file.count - 12) left")
        }
        let data = Array(UnsafeBufferPointer(start: file.buffer + s + 12, count: size))
        position = s + 12 + size
        let key: Bool
        if codec == .vp8 {
            key = data[0] & 1 == 0
        } else if let header = VP9FrameHeader(data) {
            key = header.isKeyFrame
            if key, declaredKeyConfigNeeded {
                configuration = header.configuration
                declaredKeyConfigNeeded = false
            }
        } else {
            throw ElementaryStreamError(path: path, offset: offset + 12, message: "not a VP9 frame (bad frame marker)")
        }
        return IVFFrame(data: data, pts: pts, isKeyFrame: key, offset: offset)
    }

    private var declaredKeyConfigNeeded = true

    static func le16(_ p: UnsafePointer<UInt8>) -> UInt16 { UInt16(p[0]) | UInt16(p[1]) << 8 }
    static func le32(_ p: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }
}

/// The start of a VP9 uncompressed frame header (VP9 bitstream spec 6.2): frame type and, on key
/// frames, the colour configuration that vpcC describes.
struct VP9FrameHeader {
    var isKeyFrame = false
    var configuration = VPXConfiguration(codec: .vp9)

    init?(_ data: [UInt8]) {
        var r = BitReader(Array(data.prefix(16)))
        do {
            guard try r.bits(2) == 2 else { return nil }
            let low = try r.bit(), high = try r.bit()
            let profile = high << 1 | low
            if profile == 3 { try r.skip(1) }
            configuration.profile = UInt8(profile)
            if try r.flag() { return } // show_existing_frame
            isKeyFrame = try r.bit() == 0
            try r.skip(2) // show_frame, error_resilient_mode
            guard isKeyFrame else { return }
            guard try r.bits(24) == 0x498342 else { return nil }
            var bitDepth: UInt8 = 8
            if profile >= 2 { bitDepth = try r.flag() ? 12 : 10 }
            let colorSpace = try r.bits(3)
            var subsampling: UInt8 = 1 // 4:2:0 (colocated is VP9's default siting in vpcC terms)
            var full = false
            if colorSpace != 7 {
                full = try r.flag()
                if profile == 1 || profile == 3 {
                    let sx = try r.bit(), sy = try r.bit()
                    subsampling = sx == 1 && sy == 0 ? 2 : (sx == 0 && sy == 0 ? 3 : 1)
                }
            } else {
                full = true
                subsampling = 3
            }
            configuration.bitDepth = bitDepth
            configuration.chromaSubsampling = subsampling
            configuration.fullRange = full
            // VP9 color_space → ISO/IEC 23091-2 matrix coefficients (primaries/transfer follow).
            let matrix: [UInt8] = [2, 6, 1, 6, 7, 9, 2, 0]
            let primaries: [UInt8] = [2, 6, 1, 6, 7, 9, 2, 1]
            let transfer: [UInt8] = [2, 6, 1, 6, 7, 14, 2, 13]
            configuration.matrixCoefficients = matrix[Int(colorSpace)]
            configuration.colourPrimaries = primaries[Int(colorSpace)]
            configuration.transferCharacteristics = transfer[Int(colorSpace)]
        } catch {
            return nil
        }
    }
}

/// Writes VP8/VP9 frames to an IVF file; the frame count in the header is patched on `finish()`
/// (left 0 on a pipe, which cannot seek; readers do not need it, and ffmpeg leaves it so too).
public final class IVFWriter {
    private let file: OutputFile
    private var frames: UInt32 = 0

    /// - Parameter timeBase: seconds per timestamp tick (e.g. 1/25).
    public init(path: String, codec: Codec, width: Int, height: Int, timeBase: Rational) throws {
        guard codec == .vp8 || codec == .vp9 else {
            throw MP4MuxerError.invalidOption("IVF holds VP8 or VP9, not \(codec)")
        }
        do { file = try OutputFile(path: path) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
        var h: [UInt8] = Array("DKIF".utf8)
        h += le16(0) + le16(32) + Array((codec == .vp8 ? "VP80" : "VP90").utf8)
        h += le16(UInt16(clamping: width)) + le16(UInt16(clamping: height))
        h += le32(UInt32(clamping: timeBase.den)) + le32(UInt32(clamping: timeBase.num)) + le32(0) + le32(0)
        try io { try file.write(h) }
    }

    public func write(_ data: [UInt8], pts: Int64) throws {
        try io {
            try file.write(le32(UInt32(data.count)) + le32(UInt32(truncatingIfNeeded: pts)) + le32(UInt32(truncatingIfNeeded: pts >> 32)))
            try file.write(data)
        }
        frames += 1
    }

    public func finish() throws {
        try io {
            if file.isSeekable { try file.patch(le32(frames), at: 24) }
            try file.closeFile()
        }
    }

    private func io(_ body: () throws -> Void) throws {
        do { try body() } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }
}

func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
