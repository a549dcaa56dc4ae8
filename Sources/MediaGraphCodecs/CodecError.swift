/// An error from an encoder or the pixel converter: which component, which parameter (when a
/// setting is at fault), what was expected and what was found, or the library's own message.
public struct CodecError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// A setting is out of range, unknown or contradicts another (found before opening).
        case invalidSetting
        /// The library refused to open the encoder or converter.
        case openFailed
        /// The library failed while encoding or converting (the frame number says which).
        case processingFailed
        /// The frame handed in does not match what the encoder/converter was opened for.
        case invalidInput
    }

    public var kind: Kind
    /// "h264", "hevc", "vp8", "vp9", "aac" or "convert".
    public var component: String
    /// The parameter at fault, spelled as in graph files (`crf`, `keyint`, `x264-params` …).
    public var param: String?
    /// What went wrong, with expected and found values, or the library's message.
    public var message: String
    /// A decoder failed on a packet flagged `BufferFlags.leadIn` before presenting anything: a
    /// seek landed inside a frame, which a caller drops whatever its error policy.
    public var inSeekLeadIn = false

    public init(_ kind: Kind, component: String, param: String? = nil, message: String) {
        self.kind = kind
        self.component = component
        self.param = param
        self.message = message
    }

    public var description: String {
        if let param { return "\(component): param '\(param)': \(message)" }
        return "\(component): \(message)"
    }

    static func setting(_ component: String, _ param: String, expected: String, found: String) -> CodecError {
        CodecError(.invalidSetting, component: component, param: param,
                   message: "expected \(expected), found \(found)")
    }
}
