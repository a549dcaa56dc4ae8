import FuzzDriver
import MediaGraphNodes

/// YUV4MPEG2: the header, then every frame to the end or the first error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? Y4MReader(bytes: bytes, name: "fuzz.y4m") else { return 0 }
    while let frame = try? reader.next() { _ = frame }
    return 0
}

runLibFuzzer(fuzzY4M)
