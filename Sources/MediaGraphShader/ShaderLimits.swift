/// The limits the shader compiler enforces, so that a shader from anyone compiles (or fails with
/// an error naming the limit and the line:column where it was exceeded) in bounded time, memory
/// and stack, whatever its text. Docs/shaders.md ("Limits") lists them for users.
///
/// Every stage is bounded: the lexer by the source size and token count, the preprocessor by
/// the number of expansions and their nesting, the parser by nesting depths (its recursion) and the function
/// count, lowering (type checking, inlining, unrolling) by its nesting depth and a budget of
/// compile steps (the work done, not the size of the result: value numbering can keep the result
/// small while the work multiplies), and the compiled code by its operation count.
public enum ShaderLimits {
    /// Bytes of shader source.
    public static let sourceBytes = 1 << 20
    /// Characters of one identifier (GLSL ES 3.00's limit).
    public static let identifierLength = 1024
    /// Tokens after macro expansion.
    public static let tokens = 1_000_000
    /// Macro expansions in all, including those of macros that expand to nothing (which produce
    /// no tokens but still take time).
    public static let macroExpansions = 2_000_000
    /// Macros expanding inside macros.
    public static let macroNesting = 64
    /// `#if`/`#ifdef`/`#ifndef` inside one another.
    public static let conditionalNesting = 64
    /// Parentheses, operators, calls, indexing and `?:` inside one another in one expression.
    public static let expressionNesting = 256
    /// `{ }` blocks inside one another.
    public static let blockNesting = 64
    /// Statements inside one another (blocks, bodies of if/else/for).
    public static let statementNesting = 128
    /// Function definitions and prototypes.
    public static let functions = 1024
    /// User function calls inside one another (each is inlined).
    public static let callNesting = 64
    /// Expressions and statements inside one another once functions are inlined (what the
    /// compiler's recursion follows: call nesting times the nesting inside each function).
    public static let inlinedNesting = 1024
    /// Iterations of one `for` loop.
    public static let loopIterations = 1024
    /// Iterations of all loops together, once nested loops are unrolled.
    public static let totalLoopIterations = 65_536
    /// Elements of one array.
    public static let arrayLength = 4096
    /// Uniform components (floats) of all uniforms together: a vec4 is 4, a mat4 16.
    public static let uniformComponents = 16_384
    /// Compile steps: every expression and statement lowered (again for each inlined call and
    /// unrolled iteration), every operation emitted, every component of a variable set up.
    public static let compileSteps = 2_000_000
    /// Operations of the compiled code, after constant folding and value numbering.
    public static let operations = 200_000
    /// Input textures of one shader (`inputImageTexture` ... `inputImageTexture8`), as GLSL ES
    /// 1.00 guarantees 8 texture units.
    public static let inputs = 8
    /// Errors reported for one shader; later ones are counted, not listed.
    public static let errors = 100
}
