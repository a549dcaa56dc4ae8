import MediaGraphCore

/// Reads the codec configuration records containers store (the counterparts of the writers in
/// SampleEntry): avcC and hvcC (ISO/IEC 14496-15), Annex B parameter sets (MPEG-TS, raw
/// streams), OpusHead (RFC 7845 5.1, also what libavformat makes of MP4's dOps), the MPEG-4
/// AudioSpecificConfig and ADTS headers (ISO/IEC 14496-3). A stream copied from a file into our
/// muxer is described by what these return. Malformed input throws with the record and the byte.
public enum CodecConfigurationRecords {
    /// A record that does not parse: which record, at which byte, what was expected.
    public struct Malformed: Error, CustomStringConvertible, Equatable {
        public var record: String
        public var offset: Int
        public var message: String
        public var description: String { "\(record) at byte \(offset): \(message)" }
    }

    /// Whether codec-private data is an Annex B byte stream (starts with a start code) rather
    /// than an avcC/hvcC record.
    public static func isAnnexB(_ b: [UInt8]) -> Bool {
        b.count >= 3 && b[0] == 0 && b[1] == 0 && (b[2] == 1 || (b.count >= 4 && b[2] == 0 && b[3] == 1))
    }

    /// An AVCDecoderConfigurationRecord: parameter sets, and the NAL length size of the samples.
    public static func avcC(_ b: [UInt8]) throws -> H264Configuration {
        var r = RecordReader(b, record: "avcC")
        let version = try r.u8()
        guard version == 1 else { throw r.malformed(at: 0, "configurationVersion \(version), expected 1") }
        try r.skip(3) // profile, compatibility, level: the SPS holds them
        let lengthSize = Int(try r.u8() & 3) + 1
        guard lengthSize != 3 else { throw r.malformed(at: 4, "lengthSizeMinusOne 2 (NAL length sizes are 1, 2 or 4)") }
        let spsCount = Int(try r.u8() & 0x1F)
        var sps: [[UInt8]] = []
        for _ in 0..<spsCount { sps.append(try r.sized16("SPS")) }
        let ppsCount = Int(try r.u8())
        var pps: [[UInt8]] = []
        for _ in 0..<ppsCount { pps.append(try r.sized16("PPS")) }
        guard !sps.isEmpty, !pps.isEmpty else {
            throw r.malformed(at: 5, "\(sps.count) SPS and \(pps.count) PPS; a stream needs at least one of each")
        }
        var c = H264Configuration(sps: sps, pps: pps)
        c.framing = .lengthPrefixed(lengthSize)
        return c
    }

    /// An HEVCDecoderConfigurationRecord: VPS, SPS and PPS arrays, and the NAL length size.
    public static func hvcC(_ b: [UInt8]) throws -> HEVCConfiguration {
        var r = RecordReader(b, record: "hvcC")
        let version = try r.u8()
        // version 0 is what some early writers put; libavformat reads it too
        guard version <= 1 else { throw r.malformed(at: 0, "configurationVersion \(version), expected 1") }
        try r.skip(20)
        let lengthSize = Int(try r.u8() & 3) + 1
        guard lengthSize != 3 else { throw r.malformed(at: 21, "lengthSizeMinusOne 2 (NAL length sizes are 1, 2 or 4)") }
        let arrays = Int(try r.u8())
        var vps: [[UInt8]] = [], sps: [[UInt8]] = [], pps: [[UInt8]] = []
        for _ in 0..<arrays {
            let type = try r.u8() & 0x3F
            let count = Int(try r.u16())
            for _ in 0..<count {
                let nal = try r.sized16("NAL unit of type \(type)")
                switch type {
                case 32: vps.append(nal)
                case 33: sps.append(nal)
                case 34: pps.append(nal)
                default: break // SEI and others: not needed to describe the stream
                }
            }
        }
        guard !vps.isEmpty, !sps.isEmpty, !pps.isEmpty else {
            throw r.malformed(at: 22, "\(vps.count) VPS, \(sps.count) SPS and \(pps.count) PPS; a stream needs at least one of each")
        }
        var c = HEVCConfiguration(vps: vps, sps: sps, pps: pps)
        c.framing = .lengthPrefixed(lengthSize)
        return c
    }

    /// The parameter sets found in Annex B data (codec-private data of a TS stream, or the first
    /// key frame of one), framing `.annexB`; nil when they are not all there.
    public static func annexBParameterSets(_ data: [UInt8], codec: Codec) -> CodecConfiguration? {
        guard codec == .h264 || codec == .hevc else { return nil }
        var collector = ParameterSetCollector(codec: codec)
        data.withUnsafeBytes { raw in
            for range in NALUnits.annexBRanges(raw) { collector.add(Array(raw[range])) }
        }
        switch collector.configuration {
        case .h264(var c)?:
            c.framing = .annexB
            return .h264(c)
        case .hevc(var c)?:
            c.framing = .annexB
            return .hevc(c)
        default:
            return nil
        }
    }

    /// The Ogg "OpusHead" identification header.
    public static func opusHead(_ b: [UInt8]) throws -> OpusConfiguration {
        var r = RecordReader(b, record: "OpusHead")
        let magic = try r.bytes(8)
        guard magic == Array("OpusHead".utf8) else { throw r.malformed(at: 0, "expected the magic \"OpusHead\"") }
        let version = try r.u8()
        guard version >> 4 == 0 else { throw r.malformed(at: 8, "version \(version): only major version 0 is defined") }
        let channels = Int(try r.u8())
        guard channels > 0 else { throw r.malformed(at: 9, "0 output channels") }
        let preSkip = Int(try r.u16le())
        let rate = Int(try r.u32le())
        let gain = Int16(bitPattern: try r.u16le())
        let family = try r.u8()
        var c = OpusConfiguration(channels: channels, preSkip: preSkip, inputSampleRate: rate, outputGain: gain, mappingFamily: family)
        if family != 0 {
            c.streamCount = try r.u8()
            c.coupledCount = try r.u8()
            guard c.streamCount > 0, c.coupledCount <= c.streamCount else {
                throw r.malformed(at: 19, "stream count \(c.streamCount) with \(c.coupledCount) coupled")
            }
            c.channelMapping = try r.bytes(channels)
        } else {
            guard channels <= 2 else { throw r.malformed(at: 18, "mapping family 0 with \(channels) channels (at most 2)") }
            c.streamCount = 1
            c.coupledCount = channels == 2 ? 1 : 0
        }
        return c
    }

    /// The fields of an AudioSpecificConfig: audio object type, sampling rate, channel
    /// configuration (0 when a program config element describes the channels).
    public static func audioSpecificConfig(_ b: [UInt8]) throws -> (objectType: Int, sampleRate: Int, channelConfiguration: Int) {
        var bits = BitReader(b)
        do {
            var objectType = Int(try bits.bits(5))
            if objectType == 31 { objectType = 32 + Int(try bits.bits(6)) }
            let index = Int(try bits.bits(4))
            let rate: Int
            if index == 15 {
                rate = Int(try bits.bits(24))
            } else {
                guard index < aacSampleRates.count else {
                    throw Malformed(record: "AudioSpecificConfig", offset: 0, message: "sampling frequency index \(index) is reserved")
                }
                rate = aacSampleRates[index]
            }
            let channels = Int(try bits.bits(4))
            return (objectType, rate, channels)
        } catch is BitReader.EndOfData {
            throw Malformed(record: "AudioSpecificConfig", offset: b.count, message: "ends after \(b.count) bytes, inside its first fields")
        }
    }

    /// When `packet` starts with an ADTS header: the configuration it describes (as an
    /// AudioSpecificConfig) and the header's size, so the raw AAC frame can be cut out.
    public static func adtsHeader(_ packet: [UInt8]) -> (configuration: AACConfiguration, headerSize: Int)? {
        guard packet.count >= 9, packet[0] == 0xFF, packet[1] & 0xF6 == 0xF0 else { return nil }
        return packet.withUnsafeBufferPointer { p -> (AACConfiguration, Int)? in
            guard let base = p.baseAddress, let h = try? ADTSReader.parseHeader(base, path: "", offset: 0),
                  h.frameLength <= packet.count, h.headerSize < packet.count else { return nil }
            return (h.configuration, h.headerSize)
        }
    }

    /// The VP9 level (10 = 1.0 … 62 = 6.2) that picture size and rate need (VP9 Annex A), as
    /// the vpcC box wants it when the stream does not state one.
    public static func vp9Level(width: Int, height: Int, frameRate: Rational?) -> UInt8 {
        let size = Int64(width) * Int64(height)
        guard size > 0 else { return 0 }
        let rate = frameRate.map { Double($0.num) / Double(max(1, $0.den)) } ?? 0
        let samplesPerSecond = Double(size) * rate
        // (level, max luma samples per second, max luma picture size)
        let table: [(UInt8, Double, Int64)] = [
            (10, 829_440, 36_864), (11, 2_764_800, 73_728), (20, 4_608_000, 122_880), (21, 9_216_000, 245_760),
            (30, 20_736_000, 552_960), (31, 36_864_000, 983_040), (40, 83_558_400, 2_228_224),
            (41, 160_432_128, 2_228_224), (50, 311_951_360, 8_912_896), (51, 588_251_136, 8_912_896),
            (52, 1_176_502_272, 8_912_896), (60, 1_176_502_272, 35_651_584), (61, 2_353_004_544, 35_651_584),
            (62, 4_706_009_088, 35_651_584)]
        for (level, maxRate, maxSize) in table where samplesPerSecond <= maxRate && size <= maxSize { return level }
        return 0
    }
}

/// Big-endian reads over a record with bounds checks that name the record and the byte.
struct RecordReader {
    let b: [UInt8]
    let record: String
    var at = 0

    init(_ b: [UInt8], record: String) {
        self.b = b
        self.record = record
    }

    func malformed(at offset: Int, _ message: String) -> CodecConfigurationRecords.Malformed {
        CodecConfigurationRecords.Malformed(record: record, offset: offset, message: message)
    }

    mutating func need(_ n: Int, _ what: String) throws {
        guard n >= 0, at + n <= b.count else {
            throw malformed(at: at, "\(what) needs \(n) bytes but \(max(0, b.count - at)) remain (the record is \(b.count) bytes)")
        }
    }

    mutating func u8() throws -> UInt8 { try need(1, "a field"); defer { at += 1 }; return b[at] }
    mutating func u16() throws -> UInt16 { try need(2, "a field"); defer { at += 2 }; return UInt16(b[at]) << 8 | UInt16(b[at + 1]) }
    mutating func u16le() throws -> UInt16 { try need(2, "a field"); defer { at += 2 }; return UInt16(b[at + 1]) << 8 | UInt16(b[at]) }
    mutating func u32le() throws -> UInt32 {
        try need(4, "a field")
        defer { at += 4 }
        return UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
    mutating func skip(_ n: Int) throws { try need(n, "the header"); at += n }
    mutating func bytes(_ n: Int) throws -> [UInt8] { try need(n, "a field"); defer { at += n }; return Array(b[at..<at + n]) }

    /// A NAL unit behind a 16-bit length.
    mutating func sized16(_ what: String) throws -> [UInt8] {
        let start = at
        let n = Int(try u16())
        guard n > 0 else { throw malformed(at: start, "\(what) of length 0") }
        do { return try bytes(n) } catch {
            throw malformed(at: start, "\(what) is \(n) bytes long but \(b.count - start - 2) remain")
        }
    }
}

extension AnnexBAccessUnit {
    /// One access unit given whole (a packet of a raw stream as libavformat splits it), start
    /// codes included, so an `AccessUnitTimer` can time it.
    public init(bytes: [UInt8], offset: Int64 = 0) {
        self.init(data: bytes, offset: offset, nalUnits: bytes.withUnsafeBytes { NALUnits.annexBRanges($0) })
    }
}
