import MediaGraphCore

/// Gathers the parameter sets of an H.264 or HEVC stream (NAL units without start codes) into a
/// `CodecConfiguration`; a later set with the same id replaces an earlier one.
struct ParameterSetCollector {
    let codec: Codec
    private(set) var vps: [UInt32: [UInt8]] = [:]
    private(set) var sps: [UInt32: [UInt8]] = [:]
    private(set) var pps: [UInt32: [UInt8]] = [:]

    init(codec: Codec) { self.codec = codec }

    /// Takes a NAL unit if it is a parameter set; returns whether it was one.
    @discardableResult
    mutating func add(_ nal: [UInt8]) -> Bool {
        guard let h = nal.first else { return false }
        if codec == .h264 {
            switch NALUnits.h264Type(h) {
            case 7:
                guard let s = try? H264SequenceParameterSet(nal: nal) else { return true }
                sps[s.id] = nal
            case 8:
                guard let p = try? H264PictureParameterSet(nal: nal) else { return true }
                pps[p.id] = nal
            default: return false
            }
        } else {
            switch NALUnits.hevcType(h) {
            case 32:
                guard nal.count > 2, nal.count <= MediaLimits.maxParameterSetSize else { return true }
                vps[UInt32(nal[2] >> 4)] = nal
            case 33:
                guard let s = try? HEVCSequenceParameterSet(nal: nal) else { return true }
                sps[s.id] = nal
            case 34:
                guard let p = try? HEVCPictureParameterSet(nal: nal) else { return true }
                pps[p.id] = nal
            default: return false
            }
        }
        return true
    }

    var configuration: CodecConfiguration? {
        guard !sps.isEmpty, !pps.isEmpty else { return nil }
        let s = sps.keys.sorted().map { sps[$0]! }
        let p = pps.keys.sorted().map { pps[$0]! }
        if codec == .h264 { return .h264(H264Configuration(sps: s, pps: p)) }
        guard !vps.isEmpty else { return nil }
        return .hevc(HEVCConfiguration(vps: vps.keys.sorted().map { vps[$0]! }, sps: s, pps: p))
    }
}
