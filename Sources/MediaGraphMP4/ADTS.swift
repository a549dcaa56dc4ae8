import MediaGraphCore

/// One AAC frame from an ADTS stream (header removed).
public struct ADTSFrame: Sendable {
    public var data: [UInt8]
    /// Timestamp in samples (1024 per frame), i.e. in a timescale of the sample rate.
    public var pts: Int64
    public var offset: Int64
}

/// The sampling frequency table shared by ADTS headers and AudioSpecificConfig.
let aacSampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

/// Reads AAC frames from an ADTS file (ISO/IEC 13818-7 / 14496-3 adts_frame), one raw data
/// block per frame, and derives the AudioSpecificConfig from the first header.
public final class ADTSReader {
    public let path: String
    /// Object type, rate and channels of the first frame, as MP4's esds needs them.
    public private(set) var configuration: AACConfiguration
    private let file: InputFile
    private var position = 0
    private var samples: Int64 = 0

    public init(path: String) throws {
        self.path = path
        file = try InputFile(path: path, capacity: 1 << 20)
        configuration = try ADTSReader.firstHeader(file, path).configuration
    }

    /// Reads an ADTS stream held in memory; `name` stands for the file in error messages. (The
    /// same parser as for files: the entry point for fuzzing.)
    public init(bytes: [UInt8], name: String = "memory") throws {
        path = name
        file = InputFile(bytes: bytes, name: name, capacity: 1 << 20)
        configuration = try ADTSReader.firstHeader(file, name).configuration
    }

    private static func firstHeader(_ file: InputFile, _ path: String) throws -> Header {
        guard let h = try file.ensure(7, from: 0) else {
            throw ElementaryStreamError(path: path, offset: 0, message: "file is shorter than an ADTS header (7 bytes)")
        }
        return try ADTSReader.parseHeader(file.buffer + h, path: path, offset: 0)
    }

    struct Header {
        var configuration: AACConfiguration
        var headerSize: Int
        var frameLength: Int
    }

    static func parseHeader(_ p: UnsafePointer<UInt8>, path: String, offset: Int64) throws -> Header {
        guard p[0] == 0xFF, p[1] & 0xF6 == 0xF0 else {
            throw ElementaryStreamError(path: path, offset: offset,
                                        message: String(format: "expected an ADTS sync word (FFF, layer 0), found %02x %02x", p[0], p[1]))
        }
        let protectionAbsent = p[1] & 1 == 1
        let objectType = Int(p[2] >> 6) + 1
        let sfIndex = Int((p[2] >> 2) & 0xF)
        let channels = Int((p[2] & 1) << 2 | p[3] >> 6)
        let frameLength = Int(p[3] & 3) << 11 | Int(p[4]) << 3 | Int(p[5] >> 5)
        let blocks = Int(p[6] & 3) + 1
        guard sfIndex < aacSampleRates.count else {
            throw ElementaryStreamError(path: path, offset: offset + 2, message: "sampling frequency index \(sfIndex) is reserved")
        }
        guard channels > 0 else {
            throw ElementaryStreamError(path: path, offset: offset + 2,
                                        message: "channel configuration 0 (channels in a program config element) is not supported; expected 1…7")
        }
        guard blocks == 1 else {
            throw ElementaryStreamError(path: path, offset: offset + 6, message: "\(blocks) raw data blocks per ADTS frame are not supported (1 expected)")
        }
        let headerSize = protectionAbsent ? 7 : 9
        guard frameLength > headerSize else {
            throw ElementaryStreamError(path: path, offset: offset + 3, message: "frame length \(frameLength) is not above the \(headerSize)-byte header")
        }
        let asc: [UInt8] = [UInt8(objectType << 3 | sfIndex >> 1), UInt8((sfIndex & 1) << 7 | channels << 3)]
        return Header(configuration: AACConfiguration(audioSpecificConfig: asc, sampleRate: aacSampleRates[sfIndex],
                                                      channels: channels, objectType: objectType),
                      headerSize: headerSize, frameLength: frameLength)
    }

    /// The next frame, or nil at the end of the file.
    public func next() throws -> ADTSFrame? {
        guard let h = try file.ensure(7, from: position) else {
            let left = file.count - position
            if left > 0 {
                throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(position),
                                            message: "file ends inside an ADTS header (\(left) of 7 bytes)")
            }
            return nil
        }
        position = h
        let offset = file.bufferOffset + Int64(h)
        let header = try ADTSReader.parseHeader(file.buffer + h, path: path, offset: offset)
        guard let s = try file.ensure(header.frameLength, from: position) else {
            throw ElementaryStreamError(path: path, offset: offset,
                                        message: "file ends inside a frame: header says \(header.frameLength) bytes, \(file.count) left") // ensure moved the frame to the buffer's start
        }
        let data = Array(UnsafeBufferPointer(start: file.buffer + s + header.headerSize, count: header.frameLength - header.headerSize))
        position = s + header.frameLength
        let frame = ADTSFrame(data: data, pts: samples, offset: offset)
        samples += 1024
        return frame
    }
}

/// ADTS framing of raw AAC frames of one AudioSpecificConfig, as ffmpeg's adts muxer writes it:
/// a 7-byte header without CRC (buffer fullness 0x7FF), and for channel configuration 0 the
/// program config element after the first frame's header.
struct ADTSFraming {
    private let fixed: (UInt8, UInt8, UInt8)
    /// The program config element the first frame carries (channel configuration 0), then empty.
    private var programConfig: [UInt8] = []

    init(configuration: AACConfiguration) throws {
        let asc = configuration.audioSpecificConfig
        guard asc.count >= 2 else { throw MP4MuxerError.invalidOption("AudioSpecificConfig shorter than 2 bytes") }
        let objectType = Int(asc[0] >> 3)
        let sfIndex = Int(asc[0] & 7) << 1 | Int(asc[1] >> 7)
        let channels = Int(asc[1] >> 3) & 0xF
        guard (1...4).contains(objectType) else {
            throw MP4MuxerError.invalidOption("AAC object type \(objectType) cannot be written as ADTS (1…4 only)")
        }
        guard sfIndex < aacSampleRates.count, channels <= 7 else {
            throw MP4MuxerError.invalidOption("AudioSpecificConfig with frequency index \(sfIndex) / \(channels) channels cannot be written as ADTS")
        }
        fixed = (0xF1, UInt8((objectType - 1) << 6 | sfIndex << 2 | channels >> 2), UInt8((channels & 3) << 6))
        if channels == 0 {
            do { programConfig = try ADTSProgramConfig.element(fromAudioSpecificConfig: asc) } catch {
                throw MP4MuxerError.invalidOption("AudioSpecificConfig of channel configuration 0 ends inside its program config element (\(asc.count) bytes)")
            }
        }
    }

    /// Appends the frame with its header (and the first frame's program config element) to `out`.
    mutating func append(_ frame: UnsafeRawBufferPointer, to out: inout [UInt8]) throws {
        let length = frame.count + programConfig.count + 7
        guard length < 1 << 13 else { throw MP4MuxerError.invalidOption("AAC frame of \(frame.count) bytes is too long for ADTS") }
        out.append(0xFF); out.append(fixed.0); out.append(fixed.1); out.append(fixed.2 | UInt8(length >> 11))
        out.append(UInt8((length >> 3) & 0xFF)); out.append(UInt8((length & 7) << 5 | 0x1F)); out.append(0xFC)
        if !programConfig.isEmpty {
            out += programConfig
            programConfig = []
        }
        out.append(contentsOf: frame)
    }
}

/// Writes raw AAC frames as ADTS, building each 7-byte header from the AudioSpecificConfig.
public final class ADTSWriter {
    private let file: OutputFile
    private var framing: ADTSFraming
    private var out: [UInt8] = []

    public init(path: String, configuration: AACConfiguration) throws {
        framing = try ADTSFraming(configuration: configuration)
        do { file = try OutputFile(path: path) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }

    public func write(_ frame: [UInt8]) throws {
        out.removeAll(keepingCapacity: true)
        try frame.withUnsafeBytes { try framing.append($0, to: &out) }
        do { try file.write(out) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }

    public func finish() throws {
        do { try file.closeFile() } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }
}
