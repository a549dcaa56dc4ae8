import FuzzDriver
import MediaGraphCore
import MediaGraphMP4

/// The codec configuration records a container stores, as filesrc reads them from its
/// codec-private data (`CodecConfigurationRecords`): avcC, hvcC, Annex B parameter sets,
/// OpusHead, AudioSpecificConfig, ADTS headers, and the VP9 level from a picture size and rate.
/// The first byte picks the record, the rest is the record. A record that parses is checked for
/// what the muxer relies on: avcC/hvcC hold at least one of each parameter set (their SPS then
/// go through our SPS parsers, as the muxer reads them), an ADTS header lies inside its packet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecords(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 1, let data else { return 0 }
    let record = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 7 {
    case 0:
        guard let c = try? CodecConfigurationRecords.avcC(record) else { return 0 }
        precondition(!c.sps.isEmpty && !c.pps.isEmpty, "avcC accepted without SPS or PPS")
        for sps in c.sps { _ = try? H264SequenceParameterSet(nal: sps) }
    case 1:
        guard let c = try? CodecConfigurationRecords.hvcC(record) else { return 0 }
        precondition(!c.vps.isEmpty && !c.sps.isEmpty && !c.pps.isEmpty, "hvcC accepted without VPS, SPS or PPS")
        for sps in c.sps { _ = try? HEVCSequenceParameterSet(nal: sps) }
    case 2:
        _ = CodecConfigurationRecords.annexBParameterSets(record, codec: data[0] & 0x80 == 0 ? .h264 : .hevc)
    case 3:
        guard let c = try? CodecConfigurationRecords.opusHead(record) else { return 0 }
        precondition(c.channels > 0 && c.streamCount > 0 && c.coupledCount <= c.streamCount, "OpusHead accepted with \(c)")
    case 4:
        _ = try? CodecConfigurationRecords.audioSpecificConfig(record)
    case 5:
        guard let h = CodecConfigurationRecords.adtsHeader(record) else { return 0 }
        precondition(h.headerSize > 0 && h.headerSize < record.count, "ADTS header of \(h.headerSize) bytes in \(record.count)")
        _ = Array(record[h.headerSize...]) // what filesrc hands on
    default:
        // width, height (16 bits each) and a frame rate num/den (16 bits each; 0 = none)
        guard record.count >= 8 else { return 0 }
        func u16(_ i: Int) -> Int { Int(record[i]) << 8 | Int(record[i + 1]) }
        let rate = u16(6) == 0 ? nil : Rational(Int64(u16(4)), Int64(u16(6)))
        let level = CodecConfigurationRecords.vp9Level(width: u16(0), height: u16(2), frameRate: rate)
        precondition(level == 0 || (10...62).contains(level), "VP9 level \(level)")
    }
    return 0
}

runLibFuzzer(fuzzRecords)
