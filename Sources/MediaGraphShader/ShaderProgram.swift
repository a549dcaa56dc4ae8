import MediaGraphShaderTiles
import MediaGraphKernels

/// A fragment shader parsed, type-checked and compiled; bind uniform values to run it.
///
/// ```swift
/// let program = try ShaderProgram(source: text, fileName: "swirl.glsl")
/// let bound = try program.bind(uniforms: ["radius": 0.5, "angle": 1.2, "center": [0.5, 0.5]])
/// let kernel = ShaderKernel(program: bound)
/// try kernel.run(source: input, destination: output, threads: 0)
/// ```
public final class ShaderProgram: Sendable {
    public let fileName: String
    public let source: String
    /// The uniforms the graph may set (texelWidth, texelHeight and imageSize, which the filter
    /// provides, and the sampler are not listed).
    public let uniforms: [ShaderUniform]
    let nodes: [Node]
    let outputs: [Int32]
    let uniformSlotCount: Int

    /// Compiles `source`; throws `ShaderCompileError` with every diagnostic found. Bounded in
    /// time, memory and stack on any text (`ShaderLimits`).
    public init(source: String, fileName: String = "shader.glsl") throws {
        self.fileName = fileName
        self.source = source
        var lexer = Lexer(source: source, diagnostics: DiagnosticList())
        let tokens = lexer.tokenize()
        if lexer.failed {
            // Past a source, token or macro limit the text is cut off: what follows would only
            // report errors about the cut.
            throw ShaderCompileError(fileName: fileName, source: String(decoding: source.utf8.prefix(ShaderLimits.sourceBytes), as: UTF8.self),
                                     diagnostics: lexer.diagnostics.sorted())
        }
        var parser = Parser(tokens: tokens, diagnostics: lexer.diagnostics)
        let items = parser.parseTranslationUnit()
        if parser.failed {
            throw ShaderCompileError(fileName: fileName, source: source, diagnostics: parser.diagnostics.sorted())
        }
        var diagnostics = parser.diagnostics
        CallGraph.reportRecursion(items, into: &diagnostics)
        let lowering = Lowering(diagnostics: diagnostics)
        // Declarations are still checked after syntax errors, so one run reports more.
        lowering.lower(items)
        let all = lowering.diagnostics.sorted()
        if all.contains(where: { $0.severity == .error }) {
            // Only the part of an oversized source the limit allows is quoted.
            throw ShaderCompileError(fileName: fileName, source: String(decoding: source.utf8.prefix(ShaderLimits.sourceBytes), as: UTF8.self),
                                     diagnostics: all)
        }
        var outputs = lowering.fragColor.ids
        if let discard = lowering.discardFlag {
            // A discarded pixel keeps the input pixel.
            let original = lowering.b.multi(.loadPixel)
            outputs = (0..<4).map { lowering.b.emit(.select, discard, original[$0], outputs[$0]) }
        }
        nodes = lowering.b.nodes
        self.outputs = outputs
        uniforms = lowering.uniforms
        uniformSlotCount = lowering.uniformSlotCount
    }

    /// Checks and binds uniform values. A uniform the shader does not declare, or a value of the
    /// wrong type or length, is an error naming the uniform, what it expects and what it got.
    /// A declared uniform without a value is 0, with a warning in `warnings`.
    public func bind(uniforms values: [String: ShaderUniformValue]) throws -> BoundShaderProgram {
        var slots = [Float](repeating: 0, count: uniformSlotCount)
        // The first few errors are listed; the rest are counted (values may come by the million).
        var errors: [ShaderUniformError] = []
        var unlisted = 0
        func add(_ uniform: String, _ message: @autoclosure () -> String) {
            if errors.count < ShaderProgram.listedBindErrors {
                errors.append(ShaderUniformError(uniform: uniform, message: message()))
            } else {
                unlisted += 1
            }
        }
        let declared = Set(uniforms.map(\.name))
        let known = uniforms.prefix(16).map { "'\($0.name)'" }.joined(separator: ", ")
            + (uniforms.count > 16 ? ", ... (\(uniforms.count) in all)" : "")
        for name in values.keys.filter({ !declared.contains($0) }).sorted() {
            let provided = ["texelWidth", "texelHeight", "imageSize"].contains(name)
            add(name, provided
                ? "uniform '\(name)' is provided by the filter from the frame size and cannot be set"
                : "\(fileName) declares no uniform '\(name.clipped())'" + (known.isEmpty ? " (it declares none)" : " (it declares \(known))"))
        }
        var warnings: [String] = []
        for u in uniforms {
            guard let v = values[u.name] else {
                if warnings.count < ShaderProgram.listedBindErrors {
                    warnings.append("\(fileName):\(u.location.line):\(u.location.column): warning: uniform '\(u.name)' (\(u.type)) has no value; it is 0")
                }
                continue
            }
            switch u.components(of: v, fileName: fileName) {
            case .success(let c): for (i, x) in c.enumerated() { slots[u.slot + i] = x }
            case .failure(let e): add(e.uniform, e.message)
            }
        }
        if unlisted > 0, let last = errors.last {
            errors.append(ShaderUniformError(uniform: last.uniform, message: "\(unlisted) more uniform errors not listed"))
        }
        if !errors.isEmpty { throw ShaderBindError(errors: errors) }
        let specialized = Specialization.specialize(nodes: nodes, outputs: outputs, uniforms: slots)
        return BoundShaderProgram(program: self, code: KernelCode(nodes: specialized.nodes, outputs: specialized.outputs),
                                  colorMap: ColorMapRecognizer.recognize(nodes: specialized.nodes, outputs: specialized.outputs),
                                  warnings: warnings)
    }
}

extension ShaderProgram {
    /// Unknown uniform names listed one by one in a `ShaderBindError` (the rest are counted).
    static let listedBindErrors = 20
}

/// Every uniform value that does not fit, one message per line.
public struct ShaderBindError: Error, CustomStringConvertible, Sendable {
    public var errors: [ShaderUniformError]
    public var description: String { errors.map(\.message).joined(separator: "\n") }
}

/// A compiled shader with its uniform values: what a kernel runs.
public struct BoundShaderProgram: Sendable {
    public let program: ShaderProgram
    /// The kernel code with the uniform values folded in.
    let code: KernelCode
    /// Operations run per tile of pixels and once per frame, after optimisation.
    public var pixelOperationCount: Int { code.pixel.count }
    public var frameOperationCount: Int { code.setup.count }
    /// Set when the shader, with these uniform values, is an affine colour map of the pixel's own
    /// colour (invert, sepia, brightness, contrast, saturation, hue ...): the kernel then runs it
    /// as `ColorMatrixKernel` (or `InvertKernel`) does, not through the general interpreter.
    public let colorMap: ColorTransform?
    /// Things worth telling the user, e.g. a declared uniform without a value.
    public let warnings: [String]
}
