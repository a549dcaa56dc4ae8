/// The signature libFuzzer calls with each input: bytes (possibly none) and their count.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTarget) -> CInt

/// Hands the process to libFuzzer with `target` as the function under test; the command line is
/// libFuzzer's (corpus directories, -max_total_time=…, -print_final_stats=1, …).
///
/// SwiftPM links an executable's `main` to the module's own entry point, so a harness cannot
/// rely on libFuzzer's `main`; it calls libFuzzer's driver from its top-level code instead.
public func runLibFuzzer(_ target: FuzzTarget) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, target))
}

@_silgen_name("exit")
private func exit(_ status: CInt) -> Never
