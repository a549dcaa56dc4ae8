/// Which inputs of a node must arrive in one shape, beyond what their caps accept: a node that
/// joins or mixes streams (concat, amix, stack) needs every video input at one size and pixel
/// format, every audio input at one sample format, rate and channel count. The graph makes them
/// meet by inserting visible adapters (`scale`, `resample`) in front of the inputs that differ,
/// as it inserts `convert` where pixel formats differ.
public struct InputMatching: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Every raw video input gets the size, pixel format and range of the first connected one.
    public static let videoGeometry = InputMatching(rawValue: 1)
    /// Every raw audio input gets the sample format, rate and channel count of the first one.
    public static let audioLayout = InputMatching(rawValue: 2)
    /// Every raw video input gets the height and pixel format of the first; its width follows
    /// its own aspect ratio (side by side: ffmpeg's hstack needs equal heights).
    public static let videoHeight = InputMatching(rawValue: 4)
    /// Every raw video input gets the width and pixel format of the first; its height follows
    /// its own aspect ratio (one above another).
    public static let videoWidth = InputMatching(rawValue: 8)
    /// When the node has two or more video inputs, each one with a display rotation is turned
    /// upright first (an inserted `rotate`), before any size is matched: ffmpeg autorotates
    /// every input before its filters, so nodes that combine videos (concat, stack, overlay,
    /// transition, multi-input shaders, mixer plugins) must not show one input turned by
    /// another's rotation. A node with one video input keeps its rotation as metadata.
    public static let videoUpright = InputMatching(rawValue: 16)
}

/// The shape an input must have (`InputMatching`): the parts of a format an inserted adapter
/// changes. Nil fields are free.
public struct FormatShape: Sendable, Hashable, CustomStringConvertible {
    public var width: Int?
    public var height: Int?
    public var pixelFormat: PixelFormat?
    public var sampleFormat: SampleFormat?
    public var sampleRate: Int?
    public var channels: Int?
    /// The display rotation video must have (0: upright, which also means not mirrored; a
    /// `rotate` adapter turns the pixels).
    public var rotation: Int?
    /// The range YUV video must have (`.limited` or `.full`; unspecified counts as limited), so
    /// a limited clip beside a full-range one is converted rather than shown under its tag.
    /// Nil for RGB, which is always full.
    public var range: ColorRange?

    public init(width: Int? = nil, height: Int? = nil, pixelFormat: PixelFormat? = nil,
                sampleFormat: SampleFormat? = nil, sampleRate: Int? = nil, channels: Int? = nil, rotation: Int? = nil,
                range: ColorRange? = nil) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.rotation = rotation
        self.range = range
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The shape of `format` that `matching` asks the other inputs of its kind to share; nil when
    /// the rule does not cover this kind of format.
    public static func of(_ format: MediaFormat, matching: InputMatching) -> FormatShape? {
        switch format {
        case .video(let v) where matching.contains(.videoGeometry):
            return FormatShape(width: v.width, height: v.height, pixelFormat: v.pixelFormat, range: yuvRange(v))
        case .video(let v) where matching.contains(.videoHeight):
            return FormatShape(height: v.height, pixelFormat: v.pixelFormat, range: yuvRange(v))
        case .video(let v) where matching.contains(.videoWidth):
            return FormatShape(width: v.width, pixelFormat: v.pixelFormat, range: yuvRange(v))
        case .audio(let a) where matching.contains(.audioLayout):
            return FormatShape(sampleFormat: a.sampleFormat, sampleRate: a.sampleRate, channels: a.channels)
        default:
            return nil
        }
    }

    /// The range a YUV format's values are in (unspecified reads as limited); nil for RGB.
    static func yuvRange(_ v: VideoFormat) -> ColorRange? {
        v.pixelFormat.isRGB ? nil : (v.range == .full ? .full : .limited)
    }

    /// This shape with a free side of a video shape filled in for `format`: scaled by the ratio
    /// of the fixed side, so the picture keeps its aspect, rounded to the pixel format's chroma
    /// grid (at least one step).
    public func completed(for format: MediaFormat) -> FormatShape {
        guard case .video(let v) = format, (width == nil) != (height == nil), v.width > 0, v.height > 0 else { return self }
        let shift = (pixelFormat ?? v.pixelFormat).chromaShift
        func scaled(_ side: Int, by ratio: Double, step: Int) -> Int {
            max(step, Int((Double(side) * ratio / Double(step)).rounded()) * step)
        }
        var out = self
        if let h = height { out.width = scaled(v.width, by: Double(h) / Double(v.height), step: 1 << shift.x) }
        if let w = width { out.height = scaled(v.height, by: Double(w) / Double(v.width), step: 1 << shift.y) }
        return out
    }

    /// Whether `format` has this shape (a shape of the other kind of media says nothing about it).
    public func accepts(_ format: MediaFormat) -> Bool {
        switch format {
        case .video(let v):
            return (width ?? v.width) == v.width && (height ?? v.height) == v.height && (pixelFormat ?? v.pixelFormat) == v.pixelFormat
                && (rotation ?? v.rotation) == v.rotation && !(rotation == 0 && v.mirrored)
                && (range == nil || Self.yuvRange(v) == nil || Self.yuvRange(v) == range)
        case .audio(let a):
            return (sampleFormat ?? a.sampleFormat) == a.sampleFormat && (sampleRate ?? a.sampleRate) == a.sampleRate
                && (channels ?? a.channels) == a.channels
        default:
            return true
        }
    }

    /// Whether this is a shape of video (true) or audio (false).
    public var isVideoShape: Bool { width != nil || height != nil || pixelFormat != nil || rotation != nil || range != nil }

    public var description: String {
        if isVideoShape {
            let turned = rotation.map { $0 == 0 ? " upright" : " rotated \($0)°" } ?? ""
            if width == nil && height == nil && pixelFormat == nil { return String(turned.dropFirst()) }
            let levels = range.map { " \($0)" } ?? ""
            return "\(pixelFormat?.rawValue ?? "any") \(width.map(String.init) ?? "?")x\(height.map(String.init) ?? "?")" + levels + turned
        }
        return "\(sampleFormat?.rawValue ?? "any") \(sampleRate.map(String.init) ?? "?")Hz \(channels.map(String.init) ?? "?")ch"
    }
}
