import FuzzDriver
import MediaGraphCore
import MediaGraphMP4

/// Annex B HEVC: access units, parameter sets, slice headers, picture order and timestamps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEVC(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? HEVCStreamReader(bytes: bytes, name: "fuzz.h265", frameRate: Rational(25, 1)) else { return 0 }
    while let unit = try? reader.next() { _ = unit }
    return 0
}

runLibFuzzer(fuzzHEVC)
