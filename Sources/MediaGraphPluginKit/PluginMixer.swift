import CMediaGraphPlugin
import MediaGraphCore

/// A node with several video inputs, or an output of another size or format than its input,
/// written in Swift for a run-time plugin (version 2 of the C interface): declare it once, create
/// it for the inputs' formats, say the output format, and write one output frame per output time
/// from the current frame of every input. `PluginExport.descriptor(…, mixers:)` exports it.
///
/// ```swift
/// final class Average: PluginMixer {
///     static let name = "example.average"
///     static let doc = "Average of two inputs."
///     static let formats: [PixelFormat] = [.yuv420p, .rgba]
///     static let inputNames = ["in", "in1"]
///     static let sameInputSize = true
///     init(inputs: [PluginVideoFormat]) {}
///     func process(_ inputs: PluginInputFrames, _ destination: FramePlanes, pts: Int64) throws { … }
/// }
/// ```
public protocol PluginMixer: AnyObject {
    /// The node type name graphs use; unique across plugins (prefix it with the plugin's name).
    static var name: String { get }
    /// One line for `mediagraph nodes`.
    static var doc: String { get }
    /// Pixel formats every input accepts, preferred first.
    static var formats: [PixelFormat] { get }
    static var params: [PluginParam] { get }
    /// Input port names (1…16 identifiers); the engine aligns two or more by time.
    static var inputNames: [String] { get }
    /// Whether the graph brings every input to the first one's size and format (inserted
    /// scale/convert nodes).
    static var sameInputSize: Bool { get }

    /// A node for inputs of these formats (throw to refuse them).
    init(inputs: [PluginVideoFormat]) throws
    /// Sets one declared param (called for every param after `init`, before `outputFormat`).
    func set(_ name: String, _ value: PluginParamValue) throws
    /// The output's format; default: the first input's.
    func outputFormat(inputs: [PluginVideoFormat]) throws -> PluginVideoFormat
    /// Writes `destination` (the output format) from the current frame of each input (nil where
    /// an input has none at this time).
    func process(_ inputs: PluginInputFrames, _ destination: FramePlanes, pts: Int64) throws
    /// The output has ended.
    func flush() throws
}

extension PluginMixer {
    public static var params: [PluginParam] { [] }
    public static var sameInputSize: Bool { false }
    public func set(_ name: String, _ value: PluginParamValue) throws {}
    public func outputFormat(inputs: [PluginVideoFormat]) throws -> PluginVideoFormat { inputs[0] }
    public func flush() throws {}
}

/// A video format as a plugin mixer sees it.
public struct PluginVideoFormat: Sendable, Equatable {
    public var format: PixelFormat
    public var width: Int
    public var height: Int

    public init(format: PixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// The input frames of one `process` call: `inputs[k]` is input k's planes, or nil. A view of
/// the host's C frames, valid during the call only (nothing is allocated per frame).
public struct PluginInputFrames {
    let frames: UnsafePointer<UnsafePointer<mg_frame>?>?
    public let count: Int

    /// Input `k`'s planes (read only), or nil when it has no frame now.
    public subscript(_ k: Int) -> FramePlanes? {
        guard k >= 0, k < count, let f = frames?[k] else { return nil }
        return FormatCode.planes(f.pointee)
    }

    /// Input `k`'s presentation time in its own time base, or nil.
    public func pts(_ k: Int) -> Int64? {
        guard k >= 0, k < count, let f = frames?[k] else { return nil }
        return f.pointee.pts
    }
}
