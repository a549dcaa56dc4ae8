/// A GLSL ES 1.00 type: scalar, vector, matrix, sampler, or a constant-size array of one of those.
public struct ShaderType: Hashable, Sendable, CustomStringConvertible {
    public enum Scalar: Hashable, Sendable { case float, int, bool, void, sampler }
    public var scalar: Scalar
    /// Components per column: 1 for scalars, 2...4 for vectors and matrices.
    public var size: Int
    /// Columns: 1 except for matrices (2...4).
    public var columns: Int
    /// Element count for arrays, 0 otherwise.
    public var arrayLength: Int

    init(_ scalar: Scalar, size: Int = 1, columns: Int = 1, arrayLength: Int = 0) {
        self.scalar = scalar; self.size = size; self.columns = columns; self.arrayLength = arrayLength
    }

    static let float = ShaderType(.float), int = ShaderType(.int), bool = ShaderType(.bool)
    static let void = ShaderType(.void, size: 0), sampler = ShaderType(.sampler, size: 0)
    static func vec(_ n: Int) -> ShaderType { ShaderType(.float, size: n) }
    static func vector(_ s: Scalar, _ n: Int) -> ShaderType { ShaderType(s, size: n) }
    static func mat(_ n: Int) -> ShaderType { ShaderType(.float, size: n, columns: n) }

    /// Type names as written in source.
    static func named(_ name: String) -> ShaderType? {
        switch name {
        case "void": return .void
        case "float": return .float
        case "int": return .int
        case "bool": return .bool
        case "sampler2D": return .sampler
        default: break
        }
        guard let n = name.last?.wholeNumberValue, (2...4).contains(n) else { return nil }
        switch name.dropLast() {
        case "vec": return .vec(n)
        case "ivec": return .vector(.int, n)
        case "bvec": return .vector(.bool, n)
        case "mat": return .mat(n)
        default: return nil
        }
    }

    var isArray: Bool { arrayLength > 0 }
    var isMatrix: Bool { columns > 1 && !isArray }
    var isVector: Bool { size > 1 && columns == 1 && !isArray }
    var isScalar: Bool { size == 1 && columns == 1 && !isArray && (scalar == .float || scalar == .int || scalar == .bool) }
    /// float, int, bool, vectors: things built from numbers without matrices or arrays.
    var isScalarOrVector: Bool { (isScalar || isVector) }
    var isNumeric: Bool { (scalar == .float || scalar == .int) && !isArray }
    /// Scalar lanes one value occupies (matrices column-major, arrays element after element).
    var componentCount: Int { size * columns * max(1, arrayLength) }
    /// The type of one array element.
    var element: ShaderType { ShaderType(scalar, size: size, columns: columns) }
    /// The type of one column of a matrix or component of a vector.
    var column: ShaderType { ShaderType(scalar, size: size) }
    var componentType: ShaderType { ShaderType(scalar) }
    func withArrayLength(_ n: Int) -> ShaderType { ShaderType(scalar, size: size, columns: columns, arrayLength: n) }

    public var description: String {
        var base: String
        switch scalar {
        case .void: return "void"
        case .sampler: base = "sampler2D"
        case .float: base = columns > 1 ? "mat\(columns)" : size > 1 ? "vec\(size)" : "float"
        case .int: base = size > 1 ? "ivec\(size)" : "int"
        case .bool: base = size > 1 ? "bvec\(size)" : "bool"
        }
        return arrayLength > 0 ? "\(base)[\(arrayLength)]" : base
    }
}
