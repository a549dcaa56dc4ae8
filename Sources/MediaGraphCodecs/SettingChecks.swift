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

    /// The input's frame size, 1…16384 each way; `even`: the encoder codes 4:2:0 only at even
    /// sizes (x264, x265; libvpx rounds the chroma planes up, as our frames do). The fault is the
    /// input's, not a param's, so the message says which frames came and what to put in between.
    func frameSize(width: Int, height: Int, even: Bool) throws {
        guard (1...16384).contains(width), (1...16384).contains(height) else {
            throw CodecError(.invalidSetting, component: component,
                             message: "the input frames are \(width)x\(height); expected 1...16384 pixels each way")
        }
        guard !even || (width % 2 == 0 && height % 2 == 0) else {
            let w = max(2, width & ~1), h = max(2, height & ~1)
            throw CodecError(.invalidSetting, component: component,
                             message: "the input frames are \(width)x\(height), but \(component) codes 4:2:0 only at even sizes; put a scale node in front of the encoder (e.g. {\"type\": \"scale\", \"params\": {\"width\": \(w), \"height\": \(h)}})")
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
    /// `value` is `key=value` pairs separated by ':' (an encoder library's own options), none of
    /// them in `fileOptions`: options that make the library read or write a file of its own
    /// choosing (x264's `stats`, x265's `csv` …). A graph may come from a stranger, and it writes
    /// only the outputs its sinks name, checked as they are (Docs/limits.md), so those are
    /// refused; `harmless` values of such a key (x265's `scaling-list=default`) pass.
    func keyValueList(_ param: String, _ value: String?, fileOptions: Set<String> = [], harmless: Set<String> = []) throws {
        guard let value, !value.isEmpty else { return }
        for item in value.split(separator: ":", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first, !key.isEmpty, !key.contains(" ") else {
                throw CodecError.setting(component, param, expected: "key=value pairs separated by ':'", found: "'\(item)' in '\(value)'")
            }
            let given = parts.count > 1 ? String(parts[1]) : ""
            if fileOptions.contains(String(key)) && !harmless.contains(given) {
                throw CodecError(.invalidSetting, component: component, param: param,
                                 message: "'\(key)' makes the library read or write a file of its own ('\(item)'); a graph writes only the outputs its sinks name, so options that name files (and two-pass encoding, whose stats go to one) are refused")
            }
        }
    }
}
