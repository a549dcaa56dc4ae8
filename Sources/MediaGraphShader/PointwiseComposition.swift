import MediaGraphKernels
import MediaGraphShaderTiles

/// Point-wise shaders and their composition into one program (issue 15, item 1: a chain of
/// user shaders runs as one pass).
///
/// A bound shader is *point-wise* when each output pixel reads only its own input pixel: every
/// texture read is of the first input at the pixel's own texel (`texture2D(inputImageTexture,
/// textureCoordinate)`, which the compiler turns into an exact texel load). It may use the
/// position (a vignette) and any uniform. Two point-wise programs compose by inlining: the
/// first one's output colour, clamped to 0...1 (as storing bytes would; not needed after a
/// colour map that cannot leave 0...1), becomes the second one's read of its own pixel.
/// What the composition skips is only the rounding to 8 bits between the two: each stage then
/// differs from the separate run by at most its sensitivity to half an LSB of input (1 LSB for
/// shaders that do not amplify, tested).
extension BoundShaderProgram {
    /// Why this program is not point-wise (it samples a neighbour, a computed coordinate or a
    /// second input), or nil when it is.
    public var pointwiseRefusal: String? {
        if program.inputCount > 1 {
            return "\(name) reads \(program.inputCount) input textures"
        }
        let live = Liveness.needed(nodes, by: outputs)
        for (i, n) in nodes.enumerated() where live[i] {
            switch n.op {
            case .texture:
                return "\(name) samples its input at a computed coordinate"
            case .loadPixel where n.input != 0:
                return "\(name) reads input \(Int(n.input) + 1)"
            case .loadPixel where n.imm != 0 || n.imm2 != 0:
                return "\(name) reads a neighbouring pixel (\(Int(n.imm)), \(n.imm2))"
            default:
                continue
            }
        }
        return nil
    }

    /// Whether each output pixel reads only its own input pixel (`pointwiseRefusal` is nil).
    public var isPointwise: Bool { pointwiseRefusal == nil }

    /// One program running `stages` in order as a single pass (the first stage reads the input;
    /// each later one reads its predecessor's output colour instead of its own pixel). Every
    /// stage must be point-wise; otherwise throws naming the first that is not. Uniform values
    /// stay as bound in each stage; live uniforms keep their names, a name already taken by an
    /// earlier stage gets "#k" (k: the stage's number from 1) appended.
    public static func composing(_ stages: [BoundShaderProgram]) throws -> BoundShaderProgram {
        guard let first = stages.first else {
            throw ShaderCompositionError(description: "no shaders to compose")
        }
        for s in stages {
            if let why = s.pointwiseRefusal {
                throw ShaderCompositionError(description: "cannot compose \(stages.map(\.name).joined(separator: " + ")): \(why), so it is not point-wise")
            }
        }
        if stages.count == 1 { return first }
        let b = IRBuilder()
        var uniformValues: [Float] = []
        var live: [String: Int] = [:]
        var previous: [Int32]?  // the previous stage's clamped output, in the new SSA
        for (k, s) in stages.enumerated() {
            let slotBase = uniformValues.count
            uniformValues += s.uniformValues
            for (name, slot) in s.liveUniforms.sorted(by: { $0.key < $1.key }) {
                live[live[name] == nil ? name : "\(name)#\(k + 1)"] = slot + slotBase
            }
            let used = Liveness.needed(s.nodes, by: s.outputs)
            var map = [Int32](repeating: -1, count: s.nodes.count)
            // Values standing for the pixel's own colour: index of the load -> the four channels.
            var ownPixel: [Int32: [Int32]] = [:]
            for (i, n) in s.nodes.enumerated() where used[i] {
                switch n.op {
                case .uniform:
                    map[i] = b.source(.uniform, imm2: n.imm2 + Int32(slotBase))
                case .const:
                    map[i] = b.constant(n.imm)
                case .loadPixel:
                    // Point-wise: the pixel's own texel of input 0.
                    if let previous {
                        ownPixel[Int32(i)] = previous
                        map[i] = previous[0]
                    } else {
                        map[i] = b.multi(.loadPixel, imm: n.imm, imm2: n.imm2, input: n.input)[0]
                    }
                case .channel:
                    if let colour = ownPixel[n.a] {
                        map[i] = colour[Int(n.imm2)]
                    } else if map[Int(n.a)] >= 0 {
                        map[i] = map[Int(n.a)] + n.imm2
                    }
                case .texture:
                    map[i] = b.multi(.texture, map[Int(n.a)], map[Int(n.b)], input: n.input)[0]  // not reached: refused above
                default:
                    switch n.op.operandCount {
                    case 0: map[i] = b.source(n.op, imm: n.imm, imm2: n.imm2)
                    case 1: map[i] = b.emit(n.op, map[Int(n.a)])
                    case 2: map[i] = b.emit(n.op, map[Int(n.a)], map[Int(n.b)])
                    default: map[i] = b.emit(n.op, map[Int(n.a)], map[Int(n.b)], map[Int(n.c)])
                    }
                }
            }
            let out = s.outputs.map { map[Int($0)] }
            if k == stages.count - 1 {
                previous = out
            } else if let map = s.colorMap, BoundShaderProgram.staysInUnitRange(map) {
                // A colour map that cannot leave 0...1 (invert, grayscale): no clamp to add, so
                // a chain of such maps is still one affine map (run as a colour matrix).
                previous = out
            } else {
                // Storing bytes would clamp to 0...1; the next stage sees that, unrounded.
                let zero = b.constant(0), one = b.constant(1)
                previous = out.map { b.emit(.max, b.emit(.min, $0, one), zero) }
            }
        }
        let outputs = previous ?? first.outputs
        let kept = Specialization.specialize(nodes: b.nodes, outputs: outputs, uniforms: uniformValues, live: Set(live.values))
        var bound = BoundShaderProgram(program: first.program, nodes: kept.nodes, outputs: kept.outputs,
                                       colorMap: live.isEmpty ? ColorMapRecognizer.recognize(nodes: kept.nodes, outputs: kept.outputs) : nil,
                                       warnings: stages.flatMap(\.warnings))
        bound.name = stages.map(\.name).joined(separator: "+")
        bound.liveUniforms = live
        bound.uniformValues = uniformValues
        return bound
    }
}

extension BoundShaderProgram {
    /// Whether every output channel of `map` stays within 0...1 for every input in 0...1 (its
    /// least and greatest values over the unit cube, from the signs of the weights).
    static func staysInUnitRange(_ map: ColorTransform) -> Bool {
        let t = map.intensity
        for j in 0..<4 {
            var low = t * map.offset[j], high = low
            for k in 0..<4 {
                let w = t * map.rows[j][k] + (j == k ? 1 - t : 0)
                if w < 0 { low += w } else { high += w }
            }
            if low < -1e-6 || high > 1 + 1e-6 { return false }
        }
        return true
    }
}

/// Why shaders could not be composed into one program.
public struct ShaderCompositionError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
