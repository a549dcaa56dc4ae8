import MediaGraphCore

/// An H.264/HEVC access unit as MPEG-TS carries it, byte for byte what ffmpeg writes when it
/// remuxes our MP4 (`h264_mp4toannexb` / `hevc_mp4toannexb`, then mpegtsenc.c): the NAL units
/// the MP4 holds (`SamplePayload`: parameter sets and delimiters of an Annex B sample are left
/// out, a length-prefixed sample is kept whole) with start codes, the parameter sets before the
/// first slice of an IDR (H.264) or IRAP (HEVC) picture, and an access unit delimiter first.
struct MPEGTSVideoAccessUnit {
    let codec: Codec
    /// The parameter sets with 4-byte start codes (the MP4's avcC/hvcC as Annex B).
    private var parameterSets: [UInt8] = []
    /// H.264: the SPS part of `parameterSets` (put before a PPS that comes without one).
    private var spsOnly: [UInt8] = []
    private var ppsOnly: [UInt8] = []
    private var framing: NALFraming = .annexB
    /// h264_mp4toannexb's state across packets.
    private var newIDR = true
    private var spsSeen = false
    private var ppsSeen = false
    /// The last access unit is `bytes[start...]` (the buffer is reused).
    private(set) var bytes: [UInt8] = []
    private(set) var start = 0
    private var types: [UInt8] = []
    private var ranges: [Range<Int>] = []

    init(codec: Codec) { self.codec = codec }

    /// Takes the parameter sets and framing of a packet's configuration (latest wins).
    mutating func configure(_ c: CodecConfiguration) {
        let startCode: [UInt8] = [0, 0, 0, 1]
        switch c {
        case .h264(let h):
            spsOnly = h.sps.flatMap { startCode + $0 }
            ppsOnly = h.pps.flatMap { startCode + $0 }
            parameterSets = spsOnly + ppsOnly
            framing = h.framing
        case .hevc(let h):
            parameterSets = (h.vps + h.sps + h.pps).flatMap { startCode + $0 }
            framing = h.framing
        default: break
        }
    }

    var isConfigured: Bool { !parameterSets.isEmpty }

    struct Failure: Error { var reason: String }

    /// Builds `bytes` from one packet.
    mutating func build(_ data: UnsafeRawBufferPointer, isKeyFrame: Bool) throws {
        try splitNALUnits(data)
        bytes.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        if ranges.isEmpty { throw Failure(reason: "holds only parameter sets or delimiters, no picture") }
        // reserve room for the delimiter and parameter sets, filled in at the end
        let room = 7 + parameterSets.count
        bytes.append(contentsOf: repeatElement(0, count: room))
        if codec == .h264 { appendH264(data) } else { try appendHEVC(data) }
        let (delimiter, withSets) = delimiterAndSets(isKeyFrame: isKeyFrame)
        let sets = withSets ? parameterSets.count : 0
        start = room - delimiter.count - sets
        bytes.withUnsafeMutableBufferPointer { b in
            for (i, x) in delimiter.enumerated() { b[start + i] = x }
            if sets > 0 {
                parameterSets.withUnsafeBufferPointer { p in
                    UnsafeMutableRawPointer(b.baseAddress! + room - sets).copyMemory(from: p.baseAddress!, byteCount: sets)
                }
            }
        }
    }

    static let h264Delimiter: [UInt8] = [0, 0, 0, 1, 0x09, 0xF0]
    static let hevcDelimiter: [UInt8] = [0, 0, 0, 1, 0x46, 0x01, 0x50]

    /// The last access unit's bytes.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start...])) }
    }

    /// The NAL units as the MP4 stores them, as ranges into `data`.
    private mutating func splitNALUnits(_ data: UnsafeRawBufferPointer) throws {
        ranges.removeAll(keepingCapacity: true)
        var prefix = 4
        switch framing {
        case .lengthPrefixed(let n): prefix = n
        case .annexB:
            if NALUnits.looksLikeAnnexB(data) {
                let codec = self.codec
                NALUnits.forEachAnnexB(data) { r in
                    if !NALUnits.isOutOfBand(data[r.lowerBound], codec: codec) { ranges.append(r) }
                }
                return
            }
        }
        var i = 0
        while i < data.count {
            guard i + prefix <= data.count else {
                throw Failure(reason: "\(data.count - i) bytes left at byte \(i), too few for a \(prefix)-byte NAL unit length")
            }
            var n = 0
            for k in 0..<prefix { n = n << 8 | Int(data[i + k]) }
            i += prefix
            guard n <= data.count - i else {
                throw Failure(reason: "NAL unit length \(n) at byte \(i - prefix) runs past the sample's end (\(data.count - i) bytes left)")
            }
            if n > 0 { ranges.append(i..<(i + n)) }
            i += n
        }
    }

    private mutating func append(_ nal: UnsafeRawBufferPointer, startCode: Int, type: UInt8) {
        if startCode == 4 { bytes.append(0) }
        bytes.append(0); bytes.append(0); bytes.append(1)
        bytes.append(contentsOf: nal)
        types.append(type)
    }

    /// h264_mp4toannexb: the parameter sets before the first slice of an IDR picture unless the
    /// packet has its own; 4-byte start codes for the first NAL unit and parameter sets, 3-byte
    /// ones for the others.
    private mutating func appendH264(_ data: UnsafeRawBufferPointer) {
        for r in ranges {
            let type = data[r.lowerBound] & 0x1F
            if type == 7 {
                spsSeen = true; newIDR = true
            } else if type == 8 {
                ppsSeen = true; newIDR = true
                if !spsSeen && !spsOnly.isEmpty {
                    bytes += spsOnly; types.append(7)
                    spsSeen = true
                }
            }
            if !newIDR && type == 5 && r.count > 1 && data[r.lowerBound + 1] & 0x80 != 0 { newIDR = true }
            if newIDR && type == 5 && !spsSeen && !ppsSeen {
                bytes += parameterSets; types += [7, 8]
                newIDR = false
            } else if newIDR && type == 5 && spsSeen && !ppsSeen && !ppsOnly.isEmpty {
                bytes += ppsOnly; types.append(8)
            }
            append(UnsafeRawBufferPointer(rebasing: data[r]), startCode: types.isEmpty || type == 7 || type == 8 ? 4 : 3, type: type)
            if !newIDR && type == 1 {
                newIDR = true; spsSeen = false; ppsSeen = false
            }
        }
    }

    /// hevc_mp4toannexb: the parameter sets before the packet's first IRAP NAL unit; 4-byte
    /// start codes throughout.
    private mutating func appendHEVC(_ data: UnsafeRawBufferPointer) throws {
        var gotIRAP = false
        for r in ranges {
            guard r.count >= 2 else { throw Failure(reason: "NAL unit of \(r.count) byte at byte \(r.lowerBound) is shorter than its 2-byte header") }
            let type = (data[r.lowerBound] >> 1) & 0x3F
            if (16...23).contains(type) && !gotIRAP {
                bytes += parameterSets; types += [32, 33, 34]
                gotIRAP = true
            }
            append(UnsafeRawBufferPointer(rebasing: data[r]), startCode: 4, type: type)
        }
    }

    /// mpegtsenc.c: an access unit delimiter unless one comes before the first slice, and the
    /// parameter sets after it when a key frame's first slice has none before it.
    private func delimiterAndSets(isKeyFrame: Bool) -> (delimiter: [UInt8], parameterSets: Bool) {
        var sawSets = false
        var stop: UInt8 = types.last ?? 0
        if codec == .h264 {
            for t in types {
                if t == 7 { sawSets = true }
                if t == 9 || t == 5 || t == 1 { stop = t; break }
            }
            if stop == 9 { return ([], false) }
            return (Self.h264Delimiter, isKeyFrame && stop == 5 && !sawSets)
        }
        for t in types {
            if t == 32 { sawSets = true }
            if t == 35 || t < 32 { stop = t; break }
        }
        if stop == 35 { return ([], false) }
        return (Self.hevcDelimiter, isKeyFrame && (16...23).contains(stop) && !sawSets)
    }
}
