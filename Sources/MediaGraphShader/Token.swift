/// One token of shader source, after preprocessing.
struct Token: Equatable {
    enum Kind: Equatable { case identifier, intLiteral, floatLiteral, punct, end }
    var kind: Kind
    var text: String
    var location: ShaderSourceLocation
    var intValue: Int = 0
    var floatValue: Double = 0

    func isPunct(_ p: String) -> Bool { kind == .punct && text == p }
    func isIdent(_ s: String) -> Bool { kind == .identifier && text == s }
}
