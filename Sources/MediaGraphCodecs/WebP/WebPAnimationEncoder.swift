import CWebP
#if canImport(Glibc)
import Glibc
#endif

/// How `WebPAnimationEncoder` encodes.
public struct WebPAnimationSettings: Sendable {
    public var lossless = false
    /// 0 ... 100: lossy quality, or lossless effort.
    public var quality = 75.0
    /// 0 (fast) ... 6 (smallest).
    public var method = 4
    /// Loop count (0 = forever).
    public var loop = 0
    public init() {}
}

/// An animated WebP through libwebp's WebPAnimEncoder: frames with millisecond timestamps in,
/// the whole file out at the end (libwebp assembles it from the frames it has encoded, so memory
/// grows with the compressed size, not with the raw frames: one canvas is reused).
public final class WebPAnimationEncoder {
    public let width: Int
    public let height: Int
    private let encoder: OpaquePointer
    private var config = WebPConfig()
    private var picture = WebPPicture()
    private var start: Double?
    private var lastMilliseconds = -1
    public private(set) var frames = 0

    /// The largest side of a WebP picture.
    public static let maxSide = Int(WEBP_MAX_DIMENSION)

    public init(width: Int, height: Int, settings: WebPAnimationSettings) throws {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw CodecError(.invalidInput, component: "webp",
                             message: "a WebP is at most \(Self.maxSide) pixels per side; found \(width)x\(height)")
        }
        self.width = width
        self.height = height
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0, WebPConfigInit(&config) != 0, WebPPictureInit(&picture) != 0 else {
            throw CodecError(.openFailed, component: "webp", message: "libwebp's version does not match its headers")
        }
        options.anim_params.loop_count = Int32(settings.loop)
        options.allow_mixed = 0
        config.lossless = settings.lossless ? 1 : 0
        config.quality = Float(settings.quality)
        config.method = Int32(settings.method)
        guard WebPValidateConfig(&config) != 0 else {
            throw CodecError(.invalidSetting, component: "webp", message: "libwebp refused quality \(settings.quality) / method \(settings.method)")
        }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        guard WebPPictureAlloc(&picture) != 0 else {
            throw CodecError(.openFailed, component: "webp", message: "libwebp could not allocate a \(width)x\(height) picture")
        }
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            WebPPictureFree(&picture)
            throw CodecError(.openFailed, component: "webp", message: "libwebp could not create an animation encoder for \(width)x\(height)")
        }
        self.encoder = encoder
    }

    deinit {
        WebPAnimEncoderDelete(encoder)
        WebPPictureFree(&picture)
    }

    /// Adds a frame shown from `time` seconds: `width` x `height` pixels, `stride` bytes per row,
    /// RGBA (or BGRA when `bgra`); alpha is kept.
    public func add(_ source: UnsafePointer<UInt8>, stride: Int, bgra: Bool, time: Double) throws {
        if start == nil { start = time }
        let ms = max(Int(((time - start!) * 1000).rounded()), lastMilliseconds + 1)
        let argb = picture.argb!, argbStride = Int(picture.argb_stride)
        for y in 0..<height {
            let s = source + y * stride, o = argb + y * argbStride
            for x in 0..<width {
                let c0 = UInt32(s[4 * x]), c1 = UInt32(s[4 * x + 1]), c2 = UInt32(s[4 * x + 2]), a = UInt32(s[4 * x + 3])
                let (r, b) = bgra ? (c2, c0) : (c0, c2)
                o[x] = a << 24 | r << 16 | c1 << 8 | b
            }
        }
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: ms), &config) != 0 else { throw failure("encode frame \(frames)") }
        lastMilliseconds = ms
        frames += 1
    }

    /// Ends the animation at `endTime` seconds and returns the file's bytes.
    public func finish(endTime: Double) throws -> [UInt8] {
        let ms = max(Int(((endTime - (start ?? endTime)) * 1000).rounded()), lastMilliseconds + 1)
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: ms), nil) != 0 else { throw failure("end the animation") }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { throw failure("assemble the file") }
        defer { WebPDataClear(&data) }
        guard let bytes = data.bytes else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    private func failure(_ what: String) -> CodecError {
        let detail = WebPAnimEncoderGetError(encoder).map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
        return CodecError(.processingFailed, component: "webp", message: "libwebp could not \(what)\(detail.isEmpty ? "" : ": \(detail)")")
    }
}
