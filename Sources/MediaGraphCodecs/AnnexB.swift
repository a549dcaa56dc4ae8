/// Annex B byte streams (NAL units after 00 00 01 / 00 00 00 01 start codes), as libx264 and
/// libx265 produce them.
enum AnnexB {
    /// The NAL units of `bytes`, without start codes.
    static func nalUnits(_ bytes: UnsafeBufferPointer<UInt8>) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        let all = Array(bytes)
        var starts: [(code: Int, payload: Int)] = []
        var i = 0
        let n = all.count
        while i + 2 < n {
            if all[i] == 0 && all[i + 1] == 0 && all[i + 2] == 1 {
                let code = (i > 0 && all[i - 1] == 0) ? i - 1 : i
                starts.append((code, i + 3))
                i += 3
            } else {
                i += 1
            }
        }
        for (k, s) in starts.enumerated() {
            var end = k + 1 < starts.count ? starts[k + 1].code : n
            // trailing zero bytes belong to no NAL unit
            while end > s.payload && all[end - 1] == 0 && k + 1 == starts.count { end -= 1 }
            units.append(all[s.payload..<end])
        }
        return units
    }

    /// Whether an H.264 (`hevc == false`) or HEVC access unit carries a sequence parameter set
    /// before its first slice.
    static func hasSPS(_ data: UnsafeBufferPointer<UInt8>, hevc: Bool) -> Bool {
        var i = 0
        let n = data.count
        while i + 3 < n {
            if data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1 {
                let header = data[i + 3]
                if hevc {
                    let type = (header >> 1) & 0x3f
                    if type == 33 { return true }
                    if type < 32 { return false }
                } else {
                    let type = header & 0x1f
                    if type == 7 { return true }
                    if type >= 1 && type <= 5 { return false }
                }
                i += 3
            } else {
                i += 1
            }
        }
        return false
    }
}

extension AnnexB {
    /// Appends an x264 access unit after parameter sets put in front of it, giving its NAL units
    /// the start codes x264 itself writes with repeat-headers: four bytes only for the first NAL
    /// unit of an access unit and for SPS/PPS, three for the rest. x264 gave the first NAL unit
    /// of `payload` a four-byte code because it was first; behind the headers it no longer is.
    static func appendAfterHeaders(_ payload: UnsafeBufferPointer<UInt8>, to data: inout [UInt8]) {
        let n = payload.count
        var copied = 0
        var i = 0
        while i + 4 < n {
            if payload[i] == 0 && payload[i + 1] == 0 && payload[i + 2] == 0 && payload[i + 3] == 1 {
                let type = payload[i + 4] & 0x1f
                if type != 7 && type != 8 {
                    data.append(contentsOf: UnsafeBufferPointer(rebasing: payload[copied..<i]))
                    copied = i + 1  // drop one zero byte of the start code
                }
                i += 4
            } else {
                i += 1
            }
        }
        data.append(contentsOf: UnsafeBufferPointer(rebasing: payload[copied..<n]))
    }
}
