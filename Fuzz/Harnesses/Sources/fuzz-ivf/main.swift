import FuzzDriver
import MediaGraphMP4

/// IVF (VP8/VP9): the file header, then every frame header and payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIVF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? IVFReader(bytes: bytes, name: "fuzz.ivf") else { return 0 }
    while let frame = try? reader.next() { _ = frame }
    return 0
}

runLibFuzzer(fuzzIVF)
