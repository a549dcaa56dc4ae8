#if canImport(Glibc)
import Glibc
#endif

/// What a plugin's declaration may hold (Docs/writing-a-plugin.md, "Limits"). A descriptor is
/// read from a library the host did not build: every count, string and number in it is checked
/// against these before it is used, and a violation names the plugin file and the field.
public enum PluginLimits {
    /// Node types in one MediaGraph plugin.
    public static let maxNodeTypes = 256
    /// Pixel formats one node type lists.
    public static let maxFormats = 16
    /// Video inputs of one version-2 node type (MG_MAX_INPUTS).
    public static let maxInputs = 16
    /// Params of one node type (MediaGraph or frei0r).
    public static let maxParams = 256
    /// Bytes of a name: plugin, version, node type, param.
    public static let maxNameBytes = 256
    /// Bytes of a doc line or a default string.
    public static let maxTextBytes = 4096
    /// Largest magnitude of a declared number (default, min, max): what JSON and the param
    /// checks represent exactly as integers.
    public static let maxMagnitude = 1e15
}

/// Reading untrusted C strings with a bound.
enum CText {
    /// The text at `p`, or nil for a null pointer; throws when no NUL ends it within `limit`
    /// bytes (an unterminated or absurdly long string).
    static func read(_ p: UnsafePointer<CChar>?, limit: Int, fail: (String) -> PluginError) throws -> String? {
        guard let p else { return nil }
        let n = strnlen(p, limit + 1)
        if n > limit { throw fail("is not a NUL-terminated string of at most \(limit) bytes") }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: n), as: UTF8.self)
    }
}

/// Checking a declared number.
enum DeclaredNumber {
    /// nil when `v` is finite, within `PluginLimits.maxMagnitude` and (for integers) whole;
    /// else what is wrong with it.
    static func problem(_ v: Double, integer: Bool) -> String? {
        if !v.isFinite || Swift.abs(v) > PluginLimits.maxMagnitude {
            return "is \(v); expected a finite number within ±\(Int64(PluginLimits.maxMagnitude))"
        }
        if integer && v != v.rounded() { return "is \(v); expected a whole number for an integer param" }
        return nil
    }
}
