import MediaGraphShaderTiles
import MediaGraphKernels

/// Finds shaders that are an affine colour map: every output channel a fixed linear combination
/// of the pixel's own (r, g, b, a) plus a constant, after the uniforms are bound. invert, sepia,
/// brightness, contrast, saturation, hue and most colour grading shaders are. Such a shader needs
/// no per-pixel interpreter at all: it is exactly what `ColorMatrixKernel` runs (and, for 1 - rgb,
/// `InvertKernel`), so it runs as fast as the built-in filters.
///
/// The walk follows the SSA from the texel read at the pixel's own position through add, sub,
/// neg, multiplication and division by constants, and selects on constants; anything else
/// (another texel, a coordinate, a non-linear function, a product of two colour values) means
/// the shader is not a colour map and keeps the general kernel.
enum ColorMapRecognizer {
    /// An affine form over the input channels: `dot(weights, (r, g, b, a)) + constant`.
    struct Affine {
        var weights: SIMD4<Double>
        var constant: Double
        static func + (x: Affine, y: Affine) -> Affine { Affine(weights: x.weights + y.weights, constant: x.constant + y.constant) }
        static func - (x: Affine, y: Affine) -> Affine { Affine(weights: x.weights - y.weights, constant: x.constant - y.constant) }
        func scaled(_ k: Double) -> Affine { Affine(weights: weights * k, constant: constant * k) }
        var isConstant: Bool { weights == .zero }
    }

    /// Coefficients beyond this (in 0…1 units) stay with the general kernel, whose Float
    /// arithmetic saturates differently on overflow.
    static let largestCoefficient = 64.0

    /// The colour map the outputs compute, or nil when they are not one.
    static func recognize(nodes: [Node], outputs unclamped: [Int32]) -> ColorTransform? {
        let outputs = unclamped.map { withoutOuterClamp($0, nodes) }
        var forms = [Affine?](repeating: nil, count: nodes.count)
        // Which values the outputs need: forms are computed only for those.
        let live = Liveness.needed(nodes, by: outputs)
        func channel(_ c: Int) -> Affine {
            var w = SIMD4<Double>.zero
            w[c] = 1
            return Affine(weights: w, constant: 0)
        }
        for (i, n) in nodes.enumerated() where live[i] {
            func form(_ id: Int32) -> Affine? { forms[Int(id)] }
            switch n.op {
            case .const:
                forms[i] = Affine(weights: .zero, constant: Double(n.imm))
            case .loadPixel:
                // The texel under the pixel itself; a neighbour is not a colour map.
                guard n.imm == 0, n.imm2 == 0, n.input == 0 else { return nil }
                forms[i] = channel(0)
            case .channel:
                guard forms[Int(n.a)] != nil else { return nil }
                forms[i] = channel(Int(n.imm2))
            case .add:
                guard let x = form(n.a), let y = form(n.b) else { return nil }
                forms[i] = x + y
            case .sub:
                guard let x = form(n.a), let y = form(n.b) else { return nil }
                forms[i] = x - y
            case .neg:
                guard let x = form(n.a) else { return nil }
                forms[i] = x.scaled(-1)
            case .mul:
                guard let x = form(n.a), let y = form(n.b) else { return nil }
                if x.isConstant { forms[i] = y.scaled(x.constant) } else if y.isConstant { forms[i] = x.scaled(y.constant) } else { return nil }
            case .div:
                guard let x = form(n.a), let y = form(n.b), y.isConstant, y.constant != 0 else { return nil }
                forms[i] = x.scaled(1 / y.constant)
            case .select:
                guard let c = form(n.a), c.isConstant else { return nil }
                forms[i] = c.constant != 0 ? form(n.b) : form(n.c)
                if forms[i] == nil { return nil }
            default:
                return nil
            }
        }
        guard outputs.count == 4 else { return nil }
        var matrix: [Double] = []
        var offset: [Double] = []
        for o in outputs {
            guard let f = forms[Int(o)] else { return nil }
            matrix += [f.weights.x, f.weights.y, f.weights.z, f.weights.w]
            offset.append(f.constant)
        }
        guard (matrix + offset).allSatisfy({ $0.isFinite && abs($0) <= largestCoefficient }) else { return nil }
        return try? ColorTransform.matrix(matrix, offset: offset)
    }

    /// An output's value without the clamps around it that the store to bytes makes anyway:
    /// min(x, c) with c ≥ 1 and max(x, c) with c ≤ 0 (so `clamp(x, 0.0, 1.0)`), outermost only.
    /// The store clamps to 0…1 exactly as min/max do for the values an affine map can take.
    static func withoutOuterClamp(_ id: Int32, _ nodes: [Node]) -> Int32 {
        var id = id
        while true {
            let n = nodes[Int(id)]
            guard n.op == .min || n.op == .max else { return id }
            func constant(_ x: Int32) -> Float? { nodes[Int(x)].op == .const ? nodes[Int(x)].imm : nil }
            let redundant: (Float) -> Bool = n.op == .min ? { $0 >= 1 } : { $0 <= 0 }
            if let c = constant(n.b), redundant(c) {
                id = n.a
            } else if let c = constant(n.a), redundant(c) {
                id = n.b
            } else {
                return id
            }
        }
    }

    /// Whether `t` is rgb' = 1 - rgb with alpha kept: what `InvertKernel` computes on bytes.
    static func isInvert(_ t: ColorTransform) -> Bool {
        t.effectiveRows == [SIMD4(-1, 0, 0, 0), SIMD4(0, -1, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 0, 0, 1)]
            && t.effectiveOffset == SIMD4(1, 1, 1, 0)
    }
}
