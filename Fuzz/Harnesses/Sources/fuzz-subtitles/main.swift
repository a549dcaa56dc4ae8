import FuzzDriver
import MediaGraphNodes

/// SubRip and WebVTT files (`subtitles`): the whole cue parser on arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubtitles(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? SubtitleCues(bytes, name: "fuzz.srt")
    return 0
}

runLibFuzzer(fuzzSubtitles)
