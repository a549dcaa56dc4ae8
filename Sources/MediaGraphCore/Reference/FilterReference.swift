/// The "params (range)" column of Docs/filters.md's filter table, made from a filter's param
/// declarations, so the ranges there are the ones validation and the kernels use (a test compares
/// the committed table with this).
public enum FilterReference {
    /// Params with the same type and default are listed together, in declaration order:
    /// `red, green, blue 0…4 (1)`; `—` when the filter has none. `threads`, which every kernel
    /// filter has, is left out.
    public static func paramsCell(_ info: NodeTypeInfo) -> String {
        var groups: [(key: String, names: [String])] = []
        for p in info.params where p.name != "threads" && p.name != "fuse" {
            let key = describe(p)
            if let i = groups.firstIndex(where: { $0.key == key }) { groups[i].names.append(p.name) } else { groups.append((key, [p.name])) }
        }
        if groups.isEmpty { return "—" }
        return groups.map { $0.names.joined(separator: ", ") + " " + $0.key }.joined(separator: "; ")
    }

    /// Range, then the default in brackets (or "required"; params without either are unset
    /// unless given).
    static func describe(_ p: ParamSpec) -> String {
        var s: String
        switch p.type {
        case .double(let r): s = r.map { "\(JSONValue.format(number: $0.lowerBound))…\(JSONValue.format(number: $0.upperBound))" } ?? "any number"
        case .int(let r): s = r.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "any integer"
        case .choice(let words): s = words.joined(separator: " / ")
        case .numbers(let n): s = n.lowerBound == n.upperBound ? "\(n.lowerBound) numbers" : "\(n.lowerBound)…\(n.upperBound) numbers"
        case .times(let n): s = n.lowerBound == n.upperBound ? "\(n.lowerBound) times" : "\(n.lowerBound)…\(n.upperBound) times"
        default: s = p.type.summary
        }
        if let d = p.defaultValue {
            s += " (\(d.stringValue ?? d.brief))"
        } else if p.required {
            s += " (required)"
        }
        if p.live { s += ", live" }
        return s
    }
}
