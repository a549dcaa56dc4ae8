import FuzzDriver
import MediaGraphCodecs
import MediaGraphCore
import MediaGraphMP4

/// The decoders' glue around libavcodec (libavcodec itself is fuzzed by OSS-Fuzz): the decoder
/// writing into our pools (get_buffer2), cropping, timestamps, frame threads, conversion to the
/// declared output format and size changes mid-stream. The input is an Annex B H.264 or HEVC
/// stream (first byte: codec, threads and output format), split into access units by our reader
/// and decoded to the end. Work is capped per input: 32 access units, and only streams whose
/// parameter sets (read with our parsers) declare at most 1920×1088 are decoded.
let maxPixels = 1920 * 1088

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 1, let data else { return 0 }
    let choice = data[0]
    let codec: Codec = choice & 1 == 0 ? .h264 : .hevc
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let reader = try? AnnexBReader(bytes: stream, codec: codec, name: "fuzz") else { return 0 }
    var units: [AnnexBAccessUnit] = []
    while units.count < 32, let unit = try? reader.next() {
        for r in unit.nalUnits {
            let nal = unit.data[r]
            guard let header = nal.first else { continue }
            let pixels: Int?
            if codec == .h264 {
                pixels = header & 0x1F == 7 ? (try? H264SequenceParameterSet(nal: nal)).map { $0.width * $0.height } ?? -1 : nil
            } else {
                pixels = (header >> 1) & 0x3F == 33 ? (try? HEVCSequenceParameterSet(nal: nal)).map { $0.width * $0.height } ?? -1 : nil
            }
            // an SPS our parser refuses may still be one libavcodec reads: skip those too
            if let pixels, pixels < 0 || pixels > maxPixels { return 0 }
        }
        units.append(unit)
    }
    let outputFormats: [PixelFormat?] = [nil, .yuv420p, .rgba, .yuv444p, .gray]
    let declared = VideoFormat(pixelFormat: .yuv420p, width: 64, height: 48, frameRate: Rational(25, 1))
    let input = EncodedVideoFormat(codec: codec, raw: declared, timeBase: Rational(1, 25))
    var output: VideoFormat?
    if let pf = outputFormats[Int(choice >> 2) % outputFormats.count] {
        output = declared
        output!.pixelFormat = pf
    }
    guard let decoder = try? VideoDecoder(input: input, output: output, threads: 1 + Int(choice >> 1 & 1)) else { return 0 }
    func drain() { while let frame = try? decoder.receive() { _ = frame } }
    for (i, unit) in units.enumerated() {
        let key = unit.nalUnits.contains { r in
            guard let h = unit.data[r].first else { return false }
            return codec == .h264 ? h & 0x1F == 5 : (16...21).contains((h >> 1) & 0x3F)
        }
        _ = unit.data.withUnsafeBytes { try? decoder.send(bytes: $0, pts: Int64(i), dts: Int64(i), duration: 1, keyFrame: key) }
        drain()
    }
    try? decoder.sendEndOfStream()
    drain()
    return 0
}

runLibFuzzer(fuzzDecode)
