import FuzzDriver
import MediaGraphCore
import MediaGraphShader

/// The shader front end (UTF-8 check, lexer, preprocessor, parser, type checker, compiler) on
/// arbitrary bytes; a small program that compiles also runs on a tiny rgba frame, so the
/// compiled code and the tile loop see fuzzed programs too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let program = try? ShaderProgram.compile(bytes: bytes, fileName: "fuzz.glsl") else { return 0 }
    // Running costs pixels × operations: keep it to small programs on a 7x5 frame.
    guard program.pixelOperationCount + program.frameOperationCount <= 4096 else { return 0 }
    let width = 7, height = 5, stride = width * 4
    let source = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    let destination = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    defer { source.deallocate(); destination.deallocate() }
    for i in 0..<(stride * height) { source[i] = UInt8(truncatingIfNeeded: i &* 37 &+ 11) }
    let src = FramePlanes(format: .rgba, width: width, height: height, data0: source, stride0: stride)
    let dst = FramePlanes(format: .rgba, width: width, height: height, data0: destination, stride0: stride)
    _ = try? ShaderKernel(program: program).run(source: src, destination: dst, threads: 1)
    return 0
}

runLibFuzzer(fuzzShader)
