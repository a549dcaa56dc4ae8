/// Malformed elementary-stream input (Annex B, IVF, ADTS): which file, at which byte, and what
/// was expected there.
public struct ElementaryStreamError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var offset: Int64
    public var message: String

    public init(path: String, offset: Int64, message: String) {
        self.path = path
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(path): byte \(offset): \(message)" }
}
