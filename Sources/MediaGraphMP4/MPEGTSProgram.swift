import MediaGraphCore

/// The one program an MPEG-TS file of ours carries, with ffmpeg's defaults (`-f mpegts`
/// without options): transport stream id 1, original network id 0xFF01, service id 1, the PMT
/// on PID 0x1000, elementary streams on PIDs 0x100, 0x101, … in input order, service type
/// "digital television", provider "FFmpeg", and the service named by the `title` tag or
/// "Service01".
public struct MPEGTSProgram: Sendable, Equatable {
    public static let patPID: UInt16 = 0x0000
    public static let sdtPID: UInt16 = 0x0011
    public static let pmtPID: UInt16 = 0x1000
    public static let firstStreamPID: UInt16 = 0x0100
    static let transportStreamID: UInt16 = 1
    static let originalNetworkID: UInt16 = 0xFF01
    static let serviceID: UInt16 = 1
    static let serviceType: UInt8 = 0x01

    public struct Stream: Sendable, Equatable {
        public var pid: UInt16
        public var codec: Codec
        /// stream_type in the PMT.
        public var streamType: UInt8
        /// stream_id of its PES packets.
        public var streamID: UInt8
        /// ISO 639-2 code for the language descriptor (audio only); nil: "und".
        public var language: String?
    }

    public var streams: [Stream]
    /// The stream whose packets carry the PCR: the first video stream, else the first stream.
    public var pcrIndex: Int
    public var serviceName: String
    public var providerName = "FFmpeg"

    /// Errors name what cannot be carried; `formats` in PID order.
    public init(formats: [MediaFormat], title: String?) throws {
        var streams: [Stream] = []
        for (k, f) in formats.enumerated() {
            let pid = Self.firstStreamPID + UInt16(k)
            switch f {
            case .encodedVideo(let v) where v.codec == .h264:
                streams.append(Stream(pid: pid, codec: .h264, streamType: 0x1B, streamID: 0xE0))
            case .encodedVideo(let v) where v.codec == .hevc:
                streams.append(Stream(pid: pid, codec: .hevc, streamType: 0x24, streamID: 0xE0))
            case .encodedAudio(let a) where a.codec == .aac:
                streams.append(Stream(pid: pid, codec: .aac, streamType: 0x0F, streamID: 0xC0, language: a.raw.tags.language))
            case .encodedAudio(let a) where a.codec == .mp3:
                // ISO/IEC 13818-3 (MPEG-2 audio) below 32 kHz, as ffmpeg decides
                let type: UInt8 = a.sampleRate > 0 && a.sampleRate < 32000 ? 0x04 : 0x03
                streams.append(Stream(pid: pid, codec: .mp3, streamType: type, streamID: 0xC0, language: a.raw.tags.language))
            default:
                throw MPEGTSMuxerError.unsupported(stream: k, format: f.description)
            }
        }
        guard !streams.isEmpty else { throw MPEGTSMuxerError.noStreams }
        self.streams = streams
        pcrIndex = streams.firstIndex { $0.codec.isVideo } ?? 0
        serviceName = title ?? "Service01"
        // a section is at most 1024 bytes (section_length ≤ 1021)
        if pmtSection.count > 1024 { throw MPEGTSMuxerError.programTooLarge(streams: streams.count) }
    }

    /// Program association section: the one program and its PMT PID.
    var patSection: [UInt8] {
        var d: [UInt8] = []
        Self.put16(&d, Self.serviceID)
        Self.put16(&d, 0xE000 | Self.pmtPID)
        return Self.section(tableID: 0x00, id: Self.transportStreamID, flags: 0xB000, data: d)
    }

    /// Program map section: the PCR PID, then each stream with its type, PID and descriptors
    /// (HEVC's registration descriptor, an audio stream's language).
    var pmtSection: [UInt8] {
        var d: [UInt8] = []
        Self.put16(&d, 0xE000 | streams[pcrIndex].pid)
        Self.put16(&d, 0xF000) // no program descriptors
        for s in streams {
            d.append(s.streamType)
            Self.put16(&d, 0xE000 | s.pid)
            var desc: [UInt8] = []
            if s.codec == .hevc { desc += [0x05, 4] + Array("HEVC".utf8) }
            if !s.codec.isVideo {
                // ffmpeg writes each comma-separated 3-letter code, with audio type 0 (undefined);
                // an MP4 track always states one ("und" when unknown), so ffmpeg always has one
                let codes = (s.language ?? "und").split(separator: ",", omittingEmptySubsequences: false).filter { $0.utf8.count == 3 }.prefix(63)
                if !codes.isEmpty {
                    desc += [0x0A, UInt8(codes.count * 4)]
                    for c in codes { desc += Array(c.utf8) + [0] }
                }
            }
            Self.put16(&d, 0xF000 | UInt16(desc.count))
            d += desc
        }
        return Self.section(tableID: 0x02, id: Self.serviceID, flags: 0xB000, data: d)
    }

    /// Service description section: the service's provider and name (DVB service descriptor).
    var sdtSection: [UInt8] {
        var d: [UInt8] = []
        Self.put16(&d, Self.originalNetworkID)
        d.append(0xFF)
        Self.put16(&d, Self.serviceID)
        d.append(0xFC) // no EIT
        let descriptor = [Self.serviceType] + Self.dvbString(providerName) + Self.dvbString(serviceName)
        Self.put16(&d, 4 << 13 | UInt16(descriptor.count + 2)) // running, not scrambled
        d += [0x48, UInt8(descriptor.count)] + descriptor
        return Self.section(tableID: 0x42, id: Self.transportStreamID, flags: 0xF000, data: d)
    }

    /// A DVB string with its length byte: as it is when ASCII, marked UTF-8 (0x15) otherwise,
    /// as ffmpeg encodes it; cut to what the length byte can say.
    static func dvbString(_ s: String) -> [UInt8] {
        let bytes = Array(s.utf8)
        if let first = bytes.first, first >= 0x20, bytes.contains(where: { $0 >= 0x80 }) {
            let b = Array(bytes.prefix(253))
            return [UInt8(b.count + 1), 0x15] + b
        }
        let b = Array(bytes.prefix(255))
        return [UInt8(b.count)] + b
    }

    /// A long-form section: header (version 0, current, section 0 of 0), data, CRC-32.
    static func section(tableID: UInt8, id: UInt16, flags: UInt16, data: [UInt8]) -> [UInt8] {
        var s: [UInt8] = [tableID]
        put16(&s, flags | UInt16(data.count + 5 + 4))
        put16(&s, id)
        s += [0xC1, 0, 0]
        s += data
        let crc = CRC32MPEG2.checksum(s)
        s += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        return s
    }

    static func put16(_ d: inout [UInt8], _ v: UInt16) {
        d.append(UInt8(v >> 8))
        d.append(UInt8(v & 0xFF))
    }
}
