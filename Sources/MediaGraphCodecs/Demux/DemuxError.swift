/// Why a file could not be opened or read, in words a user can act on: the file, what was
/// expected and what libavformat found (its own messages included).
public struct DemuxError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// The file does not exist, is not readable, or is not a regular file.
        case cannotOpen
        /// libavformat does not recognise the content as media.
        case notMedia
        /// Reading failed part way (a truncated or damaged container).
        case readFailed
        /// A seek failed.
        case seekFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
