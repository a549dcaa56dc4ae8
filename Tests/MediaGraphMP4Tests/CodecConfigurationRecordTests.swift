import Foundation
import MediaGraphCore
import MediaGraphMP4
import Testing

/// The readers of container codec configuration (avcC, hvcC, OpusHead, AudioSpecificConfig,
/// ADTS) against what ffmpeg wrote and reads: parameter sets equal to those of ffmpeg's Annex B
/// rendering of the same stream, fields equal to ffprobe's.
@Suite struct CodecConfigurationRecordTests {
    /// ffprobe's codec-private data of stream `stream` (its hex dump, decoded).
    static func extradata(_ path: String, _ stream: String) throws -> [UInt8] {
        let r = try run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_streams", "-show_data", path])
        var out: [UInt8] = []
        var inDump = false
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("extradata=") { inDump = true; continue }
            guard inDump else { continue }
            guard line.count > 10, line.dropFirst(8).hasPrefix(": ") else { break }
            // "00000000: 0164 000d ffe1 …  .d......"
            let hex = line.dropFirst(10).prefix(40).replacingOccurrences(of: " ", with: "")
            var i = hex.startIndex
            while hex.distance(from: i, to: hex.endIndex) >= 2 {
                let j = hex.index(i, offsetBy: 2)
                if let b = UInt8(hex[i..<j], radix: 16) { out.append(b) }
                i = j
            }
        }
        return out
    }

    /// NAL units of an Annex B file (start codes removed).
    static func nalUnits(_ path: String) throws -> [[UInt8]] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return data.withUnsafeBytes { raw in NALUnits.annexBRanges(raw).map { Array(raw[$0]) } }
    }

    @Test func avcCHoldsTheStreamsParameterSets() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.2", "-c:v", "libx264", "-profile:v", "high", dir.file("in.mp4")])
        try ffmpeg(["-i", dir.file("in.mp4"), "-c", "copy", "-f", "h264", dir.file("in.h264")])
        let avcC = Array(try firstBox(dir.file("in.mp4"), "avcC").dropFirst(8))
        #expect(avcC == (try Self.extradata(dir.file("in.mp4"), "v:0")), "ffprobe's extradata is the avcC box")
        let c = try CodecConfigurationRecords.avcC(avcC)
        let nals = try Self.nalUnits(dir.file("in.h264"))
        #expect(c.sps == nals.filter { $0[0] & 0x1F == 7 }.prefix(1).map { $0 })
        #expect(c.pps == nals.filter { $0[0] & 0x1F == 8 }.prefix(1).map { $0 })
        #expect(c.framing == .lengthPrefixed(4))
        #expect(c.profileIDC == 100)
    }

    @Test func hvcCHoldsTheStreamsParameterSets() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.2", "-c:v", "libx265",
                    "-x265-params", "log-level=error", dir.file("in.mp4")])
        try ffmpeg(["-i", dir.file("in.mp4"), "-c", "copy", "-f", "hevc", dir.file("in.hevc")])
        let c = try CodecConfigurationRecords.hvcC(try Self.extradata(dir.file("in.mp4"), "v:0"))
        let nals = try Self.nalUnits(dir.file("in.hevc"))
        func type(_ n: [UInt8]) -> UInt8 { (n[0] >> 1) & 0x3F }
        #expect(c.vps == nals.filter { type($0) == 32 }.prefix(1).map { $0 })
        #expect(c.sps == nals.filter { type($0) == 33 }.prefix(1).map { $0 })
        #expect(c.pps == nals.filter { type($0) == 34 }.prefix(1).map { $0 })
        #expect(c.framing == .lengthPrefixed(4))
    }

    @Test func annexBParameterSetsFromATransportStream() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.2", "-c:v", "libx264", dir.file("in.ts")])
        try ffmpeg(["-i", dir.file("in.ts"), "-c", "copy", "-f", "h264", dir.file("in.h264")])
        let nals = try Self.nalUnits(dir.file("in.h264"))
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("in.h264"))))
        guard case .h264(let c)? = CodecConfigurationRecords.annexBParameterSets(data, codec: .h264) else {
            Issue.record("no parameter sets found")
            return
        }
        #expect(c.framing == .annexB)
        #expect(c.sps == [nals.first { $0[0] & 0x1F == 7 }!])
        #expect(CodecConfigurationRecords.annexBParameterSets([0, 0, 1, 0x65, 1, 2], codec: .h264) == nil)
    }

    @Test func opusHeadFieldsAreFFprobes() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try ffmpeg(["-f", "lavfi", "-i", "sine=sample_rate=48000", "-t", "0.3", "-ac", "2", "-c:a", "libopus", dir.file("in.ogg")])
        let head = try Self.extradata(dir.file("in.ogg"), "a:0")
        let c = try CodecConfigurationRecords.opusHead(head)
        #expect(c.channels == 2 && c.mappingFamily == 0 && c.streamCount == 1 && c.coupledCount == 1)
        #expect(c.inputSampleRate == 48000)
        // the pre-skip is what the Ogg demuxer asks decoders to skip on the first packet
        let first = try run("ffprobe", ["-v", "error", "-read_intervals", "%+#1", "-show_entries", "packet_side_data=skip_samples",
                                        "-of", "csv=p=0", dir.file("in.ogg")]).stdout
        #expect(first.trimmingCharacters(in: .whitespacesAndNewlines) == "\(c.preSkip)", "\(first)")
    }

    @Test func audioSpecificConfigAndADTSAgreeWithFFmpeg() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try ffmpeg(["-f", "lavfi", "-i", "sine=sample_rate=44100", "-t", "0.3", "-ac", "2", "-c:a", "aac", "-f", "adts", dir.file("in.aac")])
        // ffmpeg's own ADTS → MP4 copy builds the AudioSpecificConfig from the ADTS header
        try ffmpeg(["-i", dir.file("in.aac"), "-c", "copy", dir.file("in.m4a")])
        let asc = try Self.extradata(dir.file("in.m4a"), "a:0")
        let fields = try CodecConfigurationRecords.audioSpecificConfig(asc)
        #expect(fields.objectType == 2 && fields.sampleRate == 44100 && fields.channelConfiguration == 2)
        let adts = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("in.aac"))))
        let h = CodecConfigurationRecords.adtsHeader(adts)
        #expect(h?.headerSize == 7)
        #expect(h?.configuration.audioSpecificConfig == asc)
        #expect(CodecConfigurationRecords.adtsHeader(Array(adts.dropFirst())) == nil)
    }

    @Test func malformedRecordsNameTheRecordAndTheByte() {
        let cases: [([UInt8], String)] = [
            ([], "avcC at byte 0: a field needs 1 bytes but 0 remain (the record is 0 bytes)"),
            ([2, 0x64, 0, 0x1f, 0xff, 0xe1], "avcC at byte 0: configurationVersion 2, expected 1"),
            ([1, 0x64, 0, 0x1f, 0xff, 0xe1, 0, 30, 0x67], "avcC at byte 6: SPS is 30 bytes long but 1 remain"),
            ([1, 0x64, 0, 0x1f, 0xff, 0xe0, 0], "avcC at byte 5: 0 SPS and 0 PPS; a stream needs at least one of each"),
            ([1, 0x64, 0, 0x1f, 0xfe, 0xe1], "avcC at byte 4: lengthSizeMinusOne 2 (NAL length sizes are 1, 2 or 4)"),
        ]
        for (bytes, message) in cases {
            #expect(throws: CodecConfigurationRecords.Malformed.self) { try CodecConfigurationRecords.avcC(bytes) }
            do { _ = try CodecConfigurationRecords.avcC(bytes) } catch { #expect("\(error)" == message) }
        }
        do { _ = try CodecConfigurationRecords.opusHead(Array("OpusTags".utf8) + [1, 2]) } catch {
            #expect("\(error)" == "OpusHead at byte 0: expected the magic \"OpusHead\"")
        }
        do { _ = try CodecConfigurationRecords.hvcC([1] + [UInt8](repeating: 0, count: 10)) } catch {
            #expect("\(error)" == "hvcC at byte 1: the header needs 20 bytes but 10 remain (the record is 11 bytes)")
        }
    }

    /// VP9 levels from picture size and rate (VP9 spec Annex A), as the vpcC box wants them.
    @Test func vp9Levels() {
        #expect(CodecConfigurationRecords.vp9Level(width: 320, height: 240, frameRate: Rational(25, 1)) == 20)
        #expect(CodecConfigurationRecords.vp9Level(width: 256, height: 144, frameRate: Rational(15, 1)) == 10)
        #expect(CodecConfigurationRecords.vp9Level(width: 256, height: 144, frameRate: Rational(30, 1)) == 11)
        #expect(CodecConfigurationRecords.vp9Level(width: 1920, height: 1080, frameRate: Rational(30, 1)) == 40)
        #expect(CodecConfigurationRecords.vp9Level(width: 1920, height: 1080, frameRate: Rational(60, 1)) == 41)
        #expect(CodecConfigurationRecords.vp9Level(width: 3840, height: 2160, frameRate: Rational(30, 1)) == 50)
    }
}
