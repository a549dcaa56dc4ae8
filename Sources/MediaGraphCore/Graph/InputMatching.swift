/// Which inputs of a node must arrive in one shape, beyond what their caps accept: a node that
/// joins or mixes streams (concat, amix, stack) needs every video input at one size and pixel
/// format, every audio input at one sample format, rate and channel count. The graph makes them
/// meet by inserting visible adapters (`scale`, `resample`) in front of the inputs that differ,
/// as it inserts `convert` where pixel formats differ.
public struct InputMatching: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Every raw video input gets the size and pixel format of the first connected one.
    public static let videoGeometry = InputMatching(rawValue: 1)
    /// Every raw audio input gets the sample format, rate and channel count of the first one.
    public static let audioLayout = InputMatching(rawValue: 2)
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

    public init(width: Int? = nil, height: Int? = nil, pixelFormat: PixelFormat? = nil,
                sampleFormat: SampleFormat? = nil, sampleRate: Int? = nil, channels: Int? = nil) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// The shape of `format` that `matching` asks the other inputs of its kind to share; nil when
    /// the rule does not cover this kind of format.
    public static func of(_ format: MediaFormat, matching: InputMatching) -> FormatShape? {
        switch format {
        case .video(let v) where matching.contains(.videoGeometry):
            return FormatShape(width: v.width, height: v.height, pixelFormat: v.pixelFormat)
        case .audio(let a) where matching.contains(.audioLayout):
            return FormatShape(sampleFormat: a.sampleFormat, sampleRate: a.sampleRate, channels: a.channels)
        default:
            return nil
        }
    }

    /// Whether `format` has this shape (a shape of the other kind of media says nothing about it).
    public func accepts(_ format: MediaFormat) -> Bool {
        switch format {
        case .video(let v):
            return (width ?? v.width) == v.width && (height ?? v.height) == v.height && (pixelFormat ?? v.pixelFormat) == v.pixelFormat
        case .audio(let a):
            return (sampleFormat ?? a.sampleFormat) == a.sampleFormat && (sampleRate ?? a.sampleRate) == a.sampleRate
                && (channels ?? a.channels) == a.channels
        default:
            return true
        }
    }

    /// Whether this is a shape of video (true) or audio (false).
    public var isVideoShape: Bool { width != nil || height != nil || pixelFormat != nil }

    public var description: String {
        if isVideoShape {
            return "\(pixelFormat?.rawValue ?? "any") \(width.map(String.init) ?? "?")x\(height.map(String.init) ?? "?")"
        }
        return "\(sampleFormat?.rawValue ?? "any") \(sampleRate.map(String.init) ?? "?")Hz \(channels.map(String.init) ?? "?")ch"
    }
}
