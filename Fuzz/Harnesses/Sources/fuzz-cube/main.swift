import FuzzDriver
import MediaGraphKernels

/// .cube LUT files: the whole parser on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCube(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? CubeLUT(parsing: bytes, file: "fuzz.cube")
    return 0
}

runLibFuzzer(fuzzCube)
