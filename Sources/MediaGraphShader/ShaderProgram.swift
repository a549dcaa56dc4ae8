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
    /// The input textures by input index: `inputImageTexture` (or the shader's one sampler) is
    /// input 0, `inputImageTexture2` input 1, ...; nil where the shader declares none.
    public let textureNames: [String?]
    /// Frames a kernel of this shader takes (at least 1: the first sets the output size).
    public var inputCount: Int { max(1, textureNames.count) }
    let nodes: [Node]
    let outputs: [Int32]
    let uniformSlotCount: Int

    /// Compiles `source`; throws `ShaderCompileError` with every diagnostic found. Bounded in
    /// time, memory and stack on any text (`ShaderLimits`). A `#pragma vertex` line starts a
    /// vertex stage in the same file (up to a `#pragma fragment` line or the end).
    public convenience init(source: String, fileName: String = "shader.glsl") throws {
        let (fragment, vertex) = ShaderSections.split(source)
        try self.init(source: source, fragment: Stage(text: fragment, fileName: fileName),
                      vertex: vertex.map { Stage(text: $0, fileName: fileName) })
    }

    /// Compiles a fragment shader with its own vertex shader (GPUImage's Sharpen, MotionBlur:
    /// one that computes extra texture coordinates from `position` / `inputTextureCoordinate`
    /// and uniforms). Errors name the file of the stage they are in.
    public convenience init(source: String, fileName: String, vertexSource: String, vertexFileName: String) throws {
        try self.init(source: source, fragment: Stage(text: source, fileName: fileName),
                      vertex: Stage(text: vertexSource, fileName: vertexFileName))
    }

    /// The text of one stage and its parse.
    struct Stage: Sendable {
        var text: String
        var fileName: String
        var items: [TopLevel] = []
        var diagnostics = DiagnosticList()
        /// The text errors quote, when `text` has more (a harness around it).
        var quoted: String?
        var shown: String { quoted ?? text }
    }

    private init(source: String, fragment: Stage, vertex: Stage?) throws {
        self.fileName = fragment.fileName
        self.source = source
        let parsedVertex = try vertex.map(ShaderProgram.parse)
        let parsedFragment = try ShaderProgram.parse(fragment)
        let lowering = try ShaderProgram.lower(vertex: parsedVertex, fragment: parsedFragment, uniformValues: nil, loops: [])
        outputs = ShaderProgram.outputs(of: lowering)  // may add nodes: before taking them
        nodes = lowering.b.nodes
        uniforms = lowering.uniforms
        uniformSlotCount = lowering.uniformSlotCount
        textureNames = lowering.samplerNames
        uniformBoundLoops = lowering.uniformBoundLoops
        stages = uniformBoundLoops.isEmpty ? nil : (parsedVertex, parsedFragment)
    }

    /// Lexes, preprocesses and parses one stage (syntax errors throw; the diagnostics that do
    /// not stop compiling go on to lowering).
    private static func parse(_ stage: Stage) throws -> Stage {
        var lexer = Lexer(source: stage.text, diagnostics: DiagnosticList())
        let tokens = lexer.tokenize()
        if lexer.failed {
            // Past a source, token or macro limit the text is cut off: what follows would only
            // report errors about the cut.
            throw ShaderCompileError(fileName: stage.fileName, source: String(decoding: stage.shown.utf8.prefix(ShaderLimits.sourceBytes), as: UTF8.self),
                                     diagnostics: lexer.diagnostics.sorted())
        }
        var parser = Parser(tokens: tokens, diagnostics: lexer.diagnostics)
        let items = parser.parseTranslationUnit()
        if parser.failed {
            throw ShaderCompileError(fileName: stage.fileName, source: stage.shown, diagnostics: parser.diagnostics.sorted())
        }
        var parsed = stage
        parsed.items = items
        parsed.diagnostics = parser.diagnostics
        CallGraph.reportRecursion(items, into: &parsed.diagnostics)
        return parsed
    }

    /// Type-checks and lowers the vertex stage (if any), then the fragment stage reading its
    /// varyings, into one SSA; throws the errors of the first stage that has any. With
    /// `uniformValues`, uniforms are those constants (loops bounded by them unroll).
    private static func lower(vertex: Stage?, fragment: Stage, uniformValues: [Float]?,
                              loops: Set<ShaderSourceLocation>) throws -> Lowering {
        let builder = IRBuilder()
        func check(_ lowering: Lowering, _ stage: Stage) throws {
            let all = lowering.diagnostics.sorted()
            if all.contains(where: { $0.severity == .error }) {
                // Only the part of an oversized source the limit allows is quoted.
                throw ShaderCompileError(fileName: stage.fileName,
                                         source: String(decoding: stage.shown.utf8.prefix(ShaderLimits.sourceBytes), as: UTF8.self),
                                         diagnostics: uniformValues == nil ? all : all.filter { $0.severity == .error })
            }
        }
        func stageLowering(_ stage: Stage, _ kind: ShaderStage) -> Lowering {
            let l = Lowering(diagnostics: uniformValues == nil ? stage.diagnostics : DiagnosticList(), stage: kind, builder: builder)
            l.uniformValues = uniformValues
            l.uniformBoundLoops = loops
            return l
        }
        let fragmentLowering = stageLowering(fragment, .fragment)
        if let vertex {
            let v = stageLowering(vertex, .vertex)
            v.lower(vertex.items)
            try check(v, vertex)
            fragmentLowering.vertexVaryings = v.varyingsWritten
            fragmentLowering.uniforms = v.uniforms
            fragmentLowering.uniformSlotCount = v.uniformSlotCount
            fragmentLowering.uniformBoundLoops.formUnion(v.uniformBoundLoops)
        }
        // Declarations are still checked after syntax errors, so one run reports more.
        fragmentLowering.lower(fragment.items)
        try check(fragmentLowering, fragment)
        return fragmentLowering
    }

    /// The parsed stages, kept when loops bounded by uniforms make `bind` lower them again.
    private let stages: (vertex: Stage?, fragment: Stage)?
    /// Loops whose bounds are uniforms: unrolled by `bind`, which knows the values.
    let uniformBoundLoops: Set<ShaderSourceLocation>

    /// gl_FragColor's values once lowered (a discarded pixel keeps the input pixel).
    private static func outputs(of lowering: Lowering) -> [Int32] {
        var outputs = lowering.fragColor.ids
        if let discard = lowering.discardFlag {
            let original = lowering.b.multi(.loadPixel)
            outputs = (0..<4).map { lowering.b.emit(.select, discard, original[$0], outputs[$0]) }
        }
        return outputs
    }

    /// The SSA with the uniform values in `slots`: the compiled code specialised, or, when loops
    /// are bounded by uniforms, the shader lowered again with the values as constants so those
    /// loops unroll (under the usual iteration caps, whose errors name the loop).
    private func code(for slots: [Float], live: Set<Int> = []) throws -> (nodes: [Node], outputs: [Int32]) {
        guard let stages else {
            return Specialization.specialize(nodes: nodes, outputs: outputs, uniforms: slots, live: live)
        }
        let lowering = try ShaderProgram.lower(vertex: stages.vertex, fragment: stages.fragment, uniformValues: slots,
                                               loops: uniformBoundLoops)
        return Specialization.specialize(nodes: lowering.b.nodes, outputs: ShaderProgram.outputs(of: lowering), uniforms: slots, live: live)
    }

    /// Checks and binds uniform values. A uniform the shader does not declare, or a value of the
    /// wrong type or length, is an error naming the uniform, what it expects and what it got
    /// (`ShaderBindError`). A declared uniform without a value is 0, with a warning in `warnings`.
    /// A loop bounded by a uniform that runs too long with these values throws
    /// `ShaderCompileError` naming the loop's line:column.
    ///
    /// Uniforms named in `live` (float scalars) are not folded into the code: the kernel reads
    /// them per frame (`ShaderKernel.setUniform`), so a value that changes every frame (a
    /// transition's `progress`) needs no new compile. Their value here is the initial one. In a
    /// shader whose loops are bounded by uniforms, a live uniform is fixed at this value.
    public func bind(uniforms values: [String: ShaderUniformValue], live: Set<String> = []) throws -> BoundShaderProgram {
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
        // the uniforms a user can set: the live ones are the node's to drive (a transition's progress)
        let settable = uniforms.filter { !live.contains($0.name) }
        let known = settable.prefix(16).map { "'\($0.name)'" }.joined(separator: ", ")
            + (settable.count > 16 ? ", ... (\(settable.count) in all)" : "")
        for name in values.keys.filter({ !declared.contains($0) }).sorted() {
            let provided = ["texelWidth", "texelHeight", "imageSize", "imageWidthFactor", "imageHeightFactor"].contains(name)
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
        var liveSlots: [String: Int] = [:]
        for name in live.sorted() {
            guard let u = uniforms.first(where: { $0.name == name }) else { add(name, "\(fileName) declares no uniform '\(name.clipped())' to change per frame"); continue }
            guard u.type == .float else { add(name, "uniform '\(name)' is \(u.type); only a float changes per frame"); continue }
            liveSlots[name] = u.slot
        }
        if !errors.isEmpty { throw ShaderBindError(errors: errors) }
        let specialized = try code(for: slots, live: Set(liveSlots.values))
        var bound = BoundShaderProgram(program: self, nodes: specialized.nodes, outputs: specialized.outputs,
                                       colorMap: liveSlots.isEmpty ? ColorMapRecognizer.recognize(nodes: specialized.nodes, outputs: specialized.outputs) : nil,
                                       warnings: warnings)
        bound.liveUniforms = liveSlots
        bound.uniformValues = slots
        return bound
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
    /// The SSA with the uniform values folded in (what composition inlines) ...
    let nodes: [Node]
    let outputs: [Int32]
    /// ... and scheduled for the kernel.
    let code: KernelCode
    /// The shader's file name, or the names of the shaders composed into it joined by "+".
    public internal(set) var name: String

    init(program: ShaderProgram, nodes: [Node], outputs: [Int32], colorMap: ColorTransform?, warnings: [String]) {
        self.program = program
        self.nodes = nodes
        self.outputs = outputs
        code = KernelCode(nodes: nodes, outputs: outputs)
        name = program.fileName
        self.colorMap = colorMap
        self.warnings = warnings
    }
    /// Operations run per tile of pixels and once per frame, after optimisation.
    public var pixelOperationCount: Int { code.pixel.count }
    public var frameOperationCount: Int { code.setup.count }
    /// Set when the shader, with these uniform values, is an affine colour map of the pixel's own
    /// colour (invert, sepia, brightness, contrast, saturation, hue ...): the kernel then runs it
    /// as `ColorMatrixKernel` (or `InvertKernel`) does, not through the general interpreter.
    public let colorMap: ColorTransform?
    /// Things worth telling the user, e.g. a declared uniform without a value.
    public let warnings: [String]
    /// Uniforms the kernel reads per frame (`bind(uniforms:live:)`), by name: their slot.
    public internal(set) var liveUniforms: [String: Int] = [:]
    /// Every uniform slot's bound value (the live ones' initial values).
    var uniformValues: [Float] = []
}

extension ShaderProgram {
    /// Compiles a transition in the gl-transitions form: `source` defines
    /// `vec4 transition(vec2 uv)`, which calls `getFromColor(uv)` and `getToColor(uv)` and reads
    /// `progress` (0...1, a uniform) and `ratio` (width / height). The program has two inputs:
    /// input 0 is the clip being left ("from"), input 1 the next one ("to"). `uv` is as
    /// gl-transitions has it, (0, 0) at the bottom left. Errors point into `source` as written.
    public convenience init(transition source: String, fileName: String = "transition.glsl") throws {
        // The declarations go first (the transition's globals may use progress and ratio, and its
        // own samplers, such as a luma map, become inputs 3, 4 ...), then `#line 1` so errors
        // keep the file's line numbers; the functions follow the transition.
        let text = ShaderProgram.transitionDeclarations + "\n#line 1\n" + source + "\n" + ShaderProgram.transitionFunctions
        try self.init(source: source, fragment: Stage(text: text, fileName: fileName, quoted: source), vertex: nil)
    }

    static let transitionDeclarations = """
    varying highp vec2 textureCoordinate;
    uniform sampler2D inputImageTexture;
    uniform sampler2D inputImageTexture2;
    uniform highp float progress;
    uniform highp vec2 imageSize;
    highp float ratio = imageSize.x / imageSize.y;
    """

    static let transitionFunctions = """
    highp vec4 getFromColor(highp vec2 uv) { return texture2D(inputImageTexture, vec2(uv.x, 1.0 - uv.y)); }
    highp vec4 getToColor(highp vec2 uv) { return texture2D(inputImageTexture2, vec2(uv.x, 1.0 - uv.y)); }
    void main() { gl_FragColor = transition(vec2(textureCoordinate.x, 1.0 - textureCoordinate.y)); }
    """
}
