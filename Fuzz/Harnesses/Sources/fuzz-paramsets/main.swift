import FuzzDriver
import MediaGraphMP4

/// H.264 and HEVC parameter sets alone (the NAL unit as avcC/hvcC or a stream carries it),
/// each parser given the same bytes, so the fuzzer reaches deep fields without a stream around them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParameterSets(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let nal = UnsafeBufferPointer(start: data, count: size)
    _ = try? H264SequenceParameterSet(nal: nal)
    _ = try? H264PictureParameterSet(nal: nal)
    _ = try? HEVCSequenceParameterSet(nal: nal)
    _ = try? HEVCPictureParameterSet(nal: nal)
    return 0
}

runLibFuzzer(fuzzParameterSets)
