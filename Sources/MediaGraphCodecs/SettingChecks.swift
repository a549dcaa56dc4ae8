import MediaGraphCore

/// Small checks shared by the settings' `validate` functions; each throws a `CodecError` that
/// names the param, what was expected and what was found.
struct SettingChecks {
    let component: String

    func range<T: Comparable & CustomStringConvertible>(_ param: String, _ value: T?, _ bounds: ClosedRange<T>) throws {
        guard let value else { return }
        guard bounds.contains(value) else {
            throw CodecError.setting(component, param, expected: "a value in \(bounds.lowerBound)...\(bounds.upperBound)",
                                     found: "\(value)")
        }
    }

    func oneOf(_ param: String, _ value: String?, _ allowed: [String]) throws {
        guard let value else { return }
        guard allowed.contains(value) else {
            throw CodecError.setting(component, param, expected: "one of \(allowed.joined(separator: ", "))",
                                     found: "'\(value)'")
        }
    }

    func notBoth(_ a: String, _ hasA: Bool, _ b: String, _ hasB: Bool) throws {
        if hasA && hasB {
            throw CodecError(.invalidSetting, component: component, param: b,
                             message: "expected either '\(a)' or '\(b)', found both (a quality target and a bitrate contradict each other)")
        }
    }

    /// yuv420p halves the chroma planes: the frame size must be even and positive.
    func frameSize(width: Int, height: Int) throws {
        guard width > 0 && width % 2 == 0 && width <= 16384 else {
            throw CodecError.setting(component, "width", expected: "an even number in 2...16384 (yuv420p)", found: "\(width)")
        }
        guard height > 0 && height % 2 == 0 && height <= 16384 else {
            throw CodecError.setting(component, "height", expected: "an even number in 2...16384 (yuv420p)", found: "\(height)")
        }
    }

    /// The pixel formats an encoder takes.
    func pixelFormat(_ format: PixelFormat, _ allowed: [PixelFormat]) throws {
        guard allowed.contains(format) else {
            throw CodecError.setting(component, "pixel format", expected: "one of \(allowed.map(\.rawValue).joined(separator: ", "))",
                                     found: format.rawValue)
        }
    }

    /// `key=value:key=value` lists passed through to x264/x265.
    func keyValueList(_ param: String, _ value: String?) throws {
        guard let value, !value.isEmpty else { return }
        for item in value.split(separator: ":", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first, !key.isEmpty, !key.contains(" ") else {
                throw CodecError.setting(component, param, expected: "key=value pairs separated by ':'", found: "'\(item)' in '\(value)'")
            }
        }
    }
}
