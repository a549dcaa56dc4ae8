import MediaGraphCore

/// Params that take a number or an ffmpeg expression (`"iw/2"`, `"(w-text_w)/2"`): declared as
/// JSON values, read as the text to parse (a number as written). Nodes parse them with
/// `NumericExpression` once they know their variables.
enum ExpressionParam {
    /// With a default expression.
    static func with(_ name: String, default d: String, doc: String) -> Param<String> {
        Param(spec: .json(name, default: .string(d, nil), doc: doc)) { v, n in text(v[n]) ?? d }
    }

    /// Unset (nil) unless given.
    static func optional(_ name: String, doc: String) -> Param<String?> {
        Param(spec: .json(name, doc: doc)) { v, n in text(v[n]) }
    }

    static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s, _)?: return s
        case nil, .null?: return nil
        case let other?: return other.brief
        }
    }

    /// Parses the param's text, or throws naming the param and the place of the mistake.
    static func parse(_ text: String, param: String, variables: [String]) throws -> NumericExpression {
        do { return try NumericExpression(text, variables: variables) } catch {
            throw NodeFailure("param '\(param)': \(error)")
        }
    }
}
