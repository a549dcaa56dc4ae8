import FuzzDriver
import MediaGraphMP4

/// ADTS (AAC): every frame header and its payload.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzADTS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? ADTSReader(bytes: bytes, name: "fuzz.aac") else { return 0 }
    while let frame = try? reader.next() { _ = frame }
    return 0
}

runLibFuzzer(fuzzADTS)
