import FuzzDriver
import MediaGraphNodes

/// WAV: the chunk walk and header, then the samples in blocks of a size taken from the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let reader = try? WAVReader(bytes: bytes, name: "fuzz.wav") else { return 0 }
    // Block sizes 1…64 frames, varied by the input's length so reads split the data differently.
    let block = 1 + size % 64
    while let got = try? reader.read(maxFrames: block) { _ = got }
    return 0
}

runLibFuzzer(fuzzWAV)
