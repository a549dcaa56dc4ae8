/// Checks the params given to a node in a graph file against the node type's specs.
public enum ParamValidator {
    /// Validates `given` (a JSON object or nil) and returns the complete values, or the problems.
    public static func validate(node: String, type: NodeTypeInfo, given: JSONValue?, baseDirectory: String,
                                file: String?) -> (ParamValues, [GraphDiagnostic]) {
        var out = ParamValues(baseDirectory: baseDirectory)
        var problems: [GraphDiagnostic] = []
        let specs = type.params
        var members: [(key: String, value: JSONValue)] = []
        if let given {
            if let m = given.objectMembers {
                members = m
            } else if case .null = given {
            } else {
                problems.append(.error("node '\(node)': \"params\" must be an object, found \(given.typeName)",
                                       node: node, file: file, at: given.location))
            }
        }
        var unknown = 0
        for (key, value) in members {
            guard let spec = specs.first(where: { $0.name == key }) else {
                // a hostile file may hold millions: describe the first ones, count the rest
                unknown += 1
                if unknown > maxUnknownParamsReported { continue }
                var msg = "node '\(node)' (\(type.name)): unknown param '\(key)'"
                if let near = ClosestName.find(key, in: specs.map(\.name)) {
                    msg += "; did you mean '\(near)'?"
                } else if specs.isEmpty {
                    msg += "; \(type.name) takes no params"
                } else {
                    msg += "; valid params: " + specs.map(\.name).joined(separator: ", ")
                }
                problems.append(.error(msg, node: node, param: key, file: file, at: value.location))
                continue
            }
            if let why = check(value, against: spec.type) {
                problems.append(.error("node '\(node)' param '\(key)': expected \(spec.type.summary), found \(why)",
                                       node: node, param: key, file: file, at: value.location))
                continue
            }
            out.set(key, canonical(value, for: spec.type))
        }
        if unknown > maxUnknownParamsReported {
            problems.append(.error("node '\(node)' (\(type.name)): \(unknown - maxUnknownParamsReported) more unknown params",
                                   node: node, file: file, at: given?.location))
        }
        let givenKeys = Set(members.map(\.key))
        for spec in specs where !out.has(spec.name) && !givenKeys.contains(spec.name) {
            if let d = spec.defaultValue {
                out.set(spec.name, d)
            } else if spec.required {
                problems.append(.error("node '\(node)' (\(type.name)): missing required param '\(spec.name)' (\(spec.type.summary))",
                                       node: node, param: spec.name, file: file, at: given?.location))
            }
        }
        return (out, problems)
    }

    /// Unknown params of one node described one by one; the rest are counted.
    public static let maxUnknownParamsReported = 20

    /// Longest path a path param takes (Linux's PATH_MAX).
    public static let maxPathBytes = 4096

    /// The word among a choice param's `words` that `value` names: a string as it is; a number
    /// the choice that is the same numeral (`rotation`: 90 is "90", `layout`: 5.1 is "5.1" and 3
    /// is "3.0"), so numeral choices can be written as numbers, in the file and with `--set`;
    /// nil for anything else.
    public static func choiceWord(_ value: JSONValue, in words: [String]) -> String? {
        switch value {
        case .string(let s, _): return s
        case .number(let n, _): return words.first { numeral($0) == n }
        default: return nil
        }
    }

    /// The value of a choice written as a plain decimal numeral ("90", "5.1", "-1"), else nil
    /// (so "inf", "1e3" or "0x10" are words, never numbers).
    public static func numeral(_ word: String) -> Double? {
        let digits = word.hasPrefix("-") ? word.dropFirst() : Substring(word)
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        return Double(word)
    }

    /// `value`, accepted for `type`, as the node reads it: a choice written as a number becomes
    /// its word (nodes read choices as strings); anything else is unchanged.
    public static func canonical(_ value: JSONValue, for type: ParamType) -> JSONValue {
        guard case .choice(let words) = type, case .number = value, let word = choiceWord(value, in: words) else { return value }
        return .string(word, value.location)
    }

    /// nil when `value` fits `type`, else a description of what was found.
    public static func check(_ value: JSONValue, against type: ParamType) -> String? {
        switch type {
        case .int(let range):
            guard case .number(let n, _) = value else { return value.typeAndValue }
            guard n == n.rounded(), Swift.abs(n) < 9e15 else { return "\(value.brief)" }
            if let r = range, !r.contains(Int(n)) { return value.brief }
            return nil
        case .double(let range):
            guard case .number(let n, _) = value else { return value.typeAndValue }
            if let r = range, !r.contains(n) { return value.brief }
            return nil
        case .bool:
            return value.boolValue == nil ? value.typeAndValue : nil
        case .string:
            return value.stringValue == nil ? value.typeAndValue : nil
        case .path:
            guard let s = value.stringValue else { return value.typeAndValue }
            if s.isEmpty { return "an empty string" }
            if let nul = s.utf8.firstIndex(of: 0) { return "a path with a NUL character at byte \(s.utf8.distance(from: s.utf8.startIndex, to: nul))" }
            if s.utf8.count > maxPathBytes { return "a path of \(s.utf8.count) bytes (the limit is \(maxPathBytes))" }
            return nil
        case .choice(let words):
            guard let s = choiceWord(value, in: words), words.contains(s) else { return value.stringValue != nil ? value.brief : value.typeAndValue }
            return nil
        case .rational:
            // the same conversion the node reads the value with: accepted means used as written
            switch ParamValues.rational(from: value) {
            case .success: return nil
            case .failure(let e): return e.reason.map { "\(value.brief) (\($0))" } ?? value.typeAndValue
            }
        case .numbers(let count):
            guard let a = value.arrayValue else { return value.typeAndValue }
            if a.contains(where: { $0.numberValue == nil }) { return "an array with a non-number" }
            if !count.contains(a.count) { return "an array of \(a.count) numbers" }
            return nil
        case .json:
            return nil
        case .time:
            switch value {
            case .string, .number: return TimeValue(json: value) == nil ? value.brief : nil
            default: return value.typeAndValue
            }
        case .times(let count):
            guard let a = value.arrayValue else { return value.typeAndValue }
            if let bad = a.firstIndex(where: { ParamValues.seconds(from: $0) == nil }) { return "an array whose item \(bad) is \(a[bad].brief)" }
            if !count.contains(a.count) { return "an array of \(a.count) times" }
            return nil
        }
    }
}

/// Finds the closest valid name to a misspelt one (edit distance), for "did you mean" hints.
public enum ClosestName {
    public static func find(_ word: String, in candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = distance(word.lowercased(), c.lowercased())
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (name, d) = best else { return nil }
        // a short word two edits away shares too little to be a typo ('pad' is not 'aac')
        return d <= (word.count <= 4 ? 1 : max(2, word.count / 3)) ? name : nil
    }

    /// Edits between `a` and `b`: insertions, deletions, substitutions and swaps of two
    /// neighbouring letters ('otu' is one swap from 'out'), optimal string alignment.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }
}
