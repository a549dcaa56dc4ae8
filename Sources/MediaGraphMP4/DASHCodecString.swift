import MediaGraphCore

/// The `codecs` attribute of a DASH Representation (RFC 6381, with the forms ISO/IEC 14496-15
/// Annex E gives for AVC and HEVC and the VP9 ISO binding gives for VP9), from the same
/// configuration the sample entry is written from, so the string and the init segment agree.
/// A player asks its decoder (MSE `isTypeSupported`) with it before fetching a byte.
public enum DASHCodecString {
    /// nil for a configuration DASH segments are not written with.
    public static func of(_ configuration: CodecConfiguration) -> String? {
        switch configuration {
        case .h264(let c):
            // avc1.PPCCLL: profile_idc, constraint flags, level_idc, as avcC holds them
            return "avc1." + hex(c.profileIDC) + hex(c.constraintFlags) + hex(c.levelIDC)
        case .hevc(let c):
            guard let first = c.sps.first, let sps = try? HEVCSequenceParameterSet(nal: first),
                  sps.profileTierLevel.count == 12 else { return "hvc1" }
            return hevc(profileTierLevel: sps.profileTierLevel)
        case .vpx(let c) where c.codec == .vp9:
            // vp09.PP.LL.DD: profile, level, bit depth (the short form; the rest defaults as vpcC says)
            return "vp09." + decimal2(c.profile) + "." + decimal2(c.level) + "." + decimal2(c.bitDepth)
        case .aac(let c):
            // mp4a.40.AOT: MPEG-4 audio (ObjectTypeIndication 0x40) and the AudioSpecificConfig's object type
            let asc = c.audioSpecificConfig
            guard asc.count >= 2 else { return "mp4a.40" }
            var aot = Int(asc[0] >> 3)
            if aot == 31 { aot = 32 + Int((asc[0] & 7) << 3 | asc[1] >> 5) }
            return "mp4a.40.\(aot)"
        case .opus:
            return "opus"
        default:
            return nil
        }
    }

    /// hvc1.[A-C]P.FLAGS.(L|H)LEVEL[.CC…] from the 12 bytes of general profile_tier_level:
    /// profile space as a letter (none for 0), profile_idc, the 32 compatibility flags in
    /// reverse bit order in hex, tier and level_idc, then the six constraint bytes in hex up to
    /// the last that is not zero.
    public static func hevc(profileTierLevel p: [UInt8]) -> String {
        let space = Int(p[0] >> 6)
        let tierHigh = p[0] & 0x20 != 0
        let profile = Int(p[0] & 0x1F)
        var flags: UInt32 = 0
        for k in 1...4 { flags = flags << 8 | UInt32(p[k]) }
        let reversed = flags.bitSwapped
        var s = "hvc1." + (space == 0 ? "" : String(UnicodeScalar(UInt8(64 + space)))) + String(profile)
        s += "." + String(reversed, radix: 16, uppercase: true)
        s += "." + (tierHigh ? "H" : "L") + String(p[11])
        let constraints = Array(p[5...10])
        if let last = constraints.lastIndex(where: { $0 != 0 }) {
            for b in constraints[...last] { s += "." + String(b, radix: 16, uppercase: true) }
        }
        return s
    }

    static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }

    static func decimal2(_ b: UInt8) -> String { b < 10 ? "0\(b)" : "\(b)" }
}

fileprivate extension UInt32 {
    /// The bits in reverse order (bit 0 becomes bit 31).
    var bitSwapped: UInt32 {
        var v = self, r: UInt32 = 0
        for _ in 0..<32 {
            r = r << 1 | (v & 1)
            v >>= 1
        }
        return r
    }
}
