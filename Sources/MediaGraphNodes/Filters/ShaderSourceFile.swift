import MediaGraphCore
import MediaGraphShader

/// The bytes of a shader file, read without trusting it: a regular file (not a FIFO, a device
/// such as /dev/zero, or a directory) of at most `ShaderLimits.sourceBytes`; one more byte is
/// read so the compiler reports the limit with its line:column.
enum ShaderSourceFile {
    static func read(_ path: String) throws -> [UInt8] {
        do {
            return try SmallFileReader.readPrefix(path, limit: ShaderLimits.sourceBytes, regularFileOnly: true)
        } catch {
            switch error {
            case .unreadable(let why): throw NodeFailure("param 'file': cannot open shader '\(path)': \(why)")
            case .isDirectory: throw NodeFailure("param 'file': shader '\(path)' is a directory, not a file")
            case .notRegularFile, .tooLarge: throw NodeFailure("param 'file': shader '\(path)' is not a regular file")
            }
        }
    }
}
