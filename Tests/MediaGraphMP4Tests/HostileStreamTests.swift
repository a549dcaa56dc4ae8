import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Hand-made hostile elementary streams (Annex B H.264/HEVC, IVF, ADTS) and timestamps: each is
/// rejected with the exact message (file, byte offset, what was expected and found), fast, and
/// without a trap.
@Suite struct HostileStreamTests {
    /// Reads every access unit of an H.264 stream in memory; returns the error it ends with.
    static func h264Error(_ bytes: [UInt8], frameRate: Rational? = Rational(25, 1), timescale: Int64? = nil) -> ElementaryStreamError? {
        let clock = ContinuousClock()
        let start = clock.now
        defer { #expect(clock.now - start < .seconds(5), "took \(clock.now - start)") }
        do {
            let reader = try H264StreamReader(bytes: bytes, name: "hostile.h264", frameRate: frameRate, timescale: timescale)
            while try reader.next() != nil {}
        } catch let e as ElementaryStreamError {
            return e
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    static func hevcError(_ bytes: [UInt8]) -> ElementaryStreamError? {
        do {
            let reader = try HEVCStreamReader(bytes: bytes, name: "hostile.hevc", frameRate: Rational(25, 1))
            while try reader.next() != nil {}
        } catch let e as ElementaryStreamError {
            return e
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    /// SPS + PPS + an IDR picture: a stream the timer accepts when the SPS is sound.
    static func stream(_ sps: HandMade.SPS) -> [UInt8] {
        sps.nal() + HandMade.pps() + HandMade.slice(idr: true, pocLsb: 0)
    }

    @Test func soundHandMadeStreamIsRead() throws {
        var sps = HandMade.SPS()
        sps.crop = (0, 2, 0, 4)
        let reader = try H264StreamReader(bytes: Self.stream(sps) + HandMade.slice(idr: false, frameNum: 1, pocLsb: 2),
                                          name: "ok.h264", frameRate: Rational(25, 1))
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 2)
        // 4 × 4 macroblocks, cropped by 2 × 2 columns and 4 × 2 rows (4:2:0).
        #expect(reader.timer.width == 60 && reader.timer.height == 56)
    }

    // Class 1: ue(v) + k with a huge ue value, and other fields beyond their ranges.

    @Test func hugeBitDepthInSPS() {
        var sps = HandMade.SPS()
        sps.profile = 100
        sps.bitDepthLumaMinus8 = 0xFFFF_FFFE
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: bit_depth_luma_minus8 4294967294 is out of range 0…6")
    }

    @Test func hugeLog2MaxFrameNumInSPS() {
        var sps = HandMade.SPS()
        sps.log2MaxFrameNumMinus4 = 0xFFFF_FFFE
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: log2_max_frame_num_minus4 4294967294 is out of range 0…12")
    }

    @Test func expGolombCodeLongerThan32Bits() {
        var sps = HandMade.SPS()
        sps.overlongIDZeros = 40
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: Exp-Golomb code with more than 31 leading zero bits")
    }

    @Test func scalingListDeltaOutOfRange() {
        var sps = HandMade.SPS()
        sps.profile = 100
        sps.scalingDelta = 2_147_483_647
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: delta_scale 2147483647 is out of range -128…127")
    }

    @Test func hugePictureSizeInSPS() {
        var sps = HandMade.SPS()
        sps.widthMbsMinus1 = 0xFFFF_FFFE
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: pic_width_in_mbs_minus1 4294967294 is out of range 0…1023")
        sps.widthMbsMinus1 = 1023
        sps.heightMapUnitsMinus1 = 1023
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: frame size 16384x16384 has 268435456 pixels, above the limit of 67108864 (2^26)")
    }

    @Test func croppingLargerThanThePicture() {
        var sps = HandMade.SPS()
        sps.crop = (0xFFFF_FFFE, 0xFFFF_FFFE, 0, 0)
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: frame cropping (left 4294967294, right 4294967294, top 0, bottom 0) leaves nothing of the 64x64 coded picture")
    }

    @Test func vuiTimingBeyondTheRateLimit() {
        var sps = HandMade.SPS()
        sps.timing = (1, 0xFFFF_FFFF)
        #expect(Self.h264Error(Self.stream(sps), frameRate: nil)?.description
            == "hostile.h264: byte 0: frame rate 4294967295/2 has a term above the limit of 2147483647")
    }

    @Test func pictureOrderCountBeyond32Bits() {
        let sps = HandMade.SPS()
        let bytes = sps.nal() + HandMade.pps(bottomFieldPicOrder: true)
            + HandMade.slice(idr: true, pocLsb: 0, deltaBottom: 0)
            + HandMade.slice(idr: false, frameNum: 1, pocLsb: 100, deltaBottom: 2_147_483_647)
        let first = sps.nal().count + HandMade.pps(bottomFieldPicOrder: true).count
            + HandMade.slice(idr: true, pocLsb: 0, deltaBottom: 0).count
        #expect(Self.h264Error(bytes)?.description
            == "hostile.h264: byte \(first): picture order count leaves the 32-bit range of ITU-T H.264 8.2.1")
    }

    @Test func timestampOverflowingInt64() {
        // 2^31−1 ticks per second at 1/(2^31−1) fps: a frame lasts (2^31−1)^2 ≈ 2^62 ticks, so
        // the third frame's end (3 frame durations) no longer fits in 64 bits.
        var sps = HandMade.SPS()
        sps.maxNumReorderFrames = 0
        let two = Self.stream(sps) + HandMade.slice(idr: false, frameNum: 1, pocLsb: 2)
        let bytes = two + HandMade.slice(idr: false, frameNum: 2, pocLsb: 4)
        #expect(Self.h264Error(bytes, frameRate: Rational(1, 2_147_483_647), timescale: 2_147_483_647)?.description
            == "hostile.h264: byte \(two.count): timestamp of access unit 2 overflows 64 bits (frame duration 4611686014132420609 ticks)")
    }

    @Test func hevcBitDepthAndReorderDepth() {
        #expect(Self.hevcError(HandMade.hevcSPS(bitDepthLumaMinus8: 0xFFFF_FFFE))?.description
            == "hostile.hevc: byte 4: HEVC sequence parameter set: bit_depth_luma_minus8 4294967294 is out of range 0…8")
        #expect(Self.hevcError(HandMade.hevcSPS(maxNumReorderPics: 1 << 31))?.description
            == "hostile.hevc: byte 4: HEVC sequence parameter set: sps_max_num_reorder_pics 2147483648 is out of range 0…16")
        #expect(Self.hevcError(HandMade.hevcSPS(width: 1 << 20))?.description
            == "hostile.hevc: byte 4: HEVC sequence parameter set: pic_width_in_luma_samples 1048576 is out of range 0…16384")
    }

    // Class 2: a VUI claiming a huge reorder depth, and pictures that never leave the buffer.

    @Test func vuiReorderDepthAboveTheSpec() {
        var sps = HandMade.SPS()
        sps.maxNumReorderFrames = 1 << 31
        #expect(Self.h264Error(Self.stream(sps))?.description
            == "hostile.h264: byte 4: sequence parameter set: max_num_reorder_frames 2147483648 is out of range 0…16")
    }

    @Test func pictureThatNeverLeavesTheReorderBuffer() {
        // Reorder depth 1; after the IDR, a non-reference picture with a large POC, then many
        // with smaller ones: it waits for ever, and the read-ahead limit stops the stream.
        var sps = HandMade.SPS()
        sps.maxNumReorderFrames = 1
        var bytes = Self.stream(sps)
        let stuck = bytes.count
        bytes += HandMade.slice(idr: false, reference: false, frameNum: 1, pocLsb: 30000)
        for _ in 0..<100 { bytes += HandMade.slice(idr: false, reference: false, frameNum: 1, pocLsb: 2) }
        let held = 64 * HandMade.slice(idr: false, reference: false, frameNum: 1, pocLsb: 2).count
        #expect(Self.h264Error(bytes)?.description
            == "hostile.h264: byte \(stuck): this picture still waits for its presentation position after 64 access units (\(held) bytes) read behind it, above the limit of 64 units or 268435456 bytes: its picture order count does not fit a reorder depth of 1")
    }

    @Test func reorderOfManyPicturesIsLinear() throws {
        // 20000 pictures at the deepest reorder depth (16), POCs descending within groups of 16.
        var sps = HandMade.SPS()
        sps.maxNumReorderFrames = 16
        var bytes = Self.stream(sps)
        for i in 1..<20000 {
            let poc = UInt64((i / 16) * 32 + (15 - i % 16) * 2) % 65536
            bytes += HandMade.slice(idr: false, frameNum: UInt64(i % 16), pocLsb: poc)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let reader = try H264StreamReader(bytes: bytes, name: "deep.h264", frameRate: Rational(25, 1))
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 20000)
        #expect(clock.now - start < .seconds(5))
    }

    // Class 3: memory sized by a header field.

    @Test func accessUnitWithTooManyNALUnits() {
        let bytes = [UInt8](repeating: 0, count: 0) + (0..<70000).flatMap { _ in [0, 0, 1, 0x06] as [UInt8] }
        #expect(Self.h264Error(bytes)?.description == "hostile.h264: byte 0: access unit has more than 65536 NAL units (the limit)")
    }

    @Test func accessUnitLongerThanTheLimit() throws {
        let bytes: [UInt8] = [0, 0, 1, 0x06] + [UInt8](repeating: 0x55, count: 5000)
        let reader = try AnnexBReader(bytes: bytes, codec: .h264, name: "long.h264")
        reader.maxAccessUnitSize = 1000
        #expect(throws: ElementaryStreamError(path: "long.h264", offset: 0,
                                               message: "access unit longer than the limit of 1000 bytes (no start code, or no new picture, within it): not an Annex B stream?")) {
            while try reader.next() != nil {}
        }
    }

    static func ivfHeader(width: UInt16 = 64, height: UInt16 = 48, rate: UInt32 = 30, scale: UInt32 = 1, headerSize: UInt16 = 32) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        return Array("DKIF".utf8) + le16(0) + le16(headerSize) + Array("VP80".utf8) + le16(width) + le16(height)
            + le32(rate) + le32(scale) + le32(1) + le32(0)
    }

    static func ivfError(_ bytes: [UInt8]) -> String? {
        do {
            let reader = try IVFReader(bytes: bytes, name: "hostile.ivf")
            while try reader.next() != nil {}
        } catch let e as ElementaryStreamError {
            return e.description
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func ivfHeaderFields() {
        #expect(Self.ivfError(Self.ivfHeader() + [0xFF, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 18))
            == "hostile.ivf: byte 32: frame size 4294967295 is not in 1…67108864")
        #expect(Self.ivfError(Self.ivfHeader(width: 65535)) == "hostile.ivf: byte 12: width 65535 is above the limit of 16384")
        #expect(Self.ivfError(Self.ivfHeader(width: 0)) == "hostile.ivf: byte 12: width 0 is not positive")
        #expect(Self.ivfError(Self.ivfHeader(rate: 0xFFFF_FFFF))
            == "hostile.ivf: byte 16: time base 1/4294967295 has a term above the limit of 2147483647")
        #expect(Self.ivfError(Self.ivfHeader(headerSize: 0xFFFF)) == "hostile.ivf: byte 6: header size 65535 is beyond the end of the file")
        // A frame header claiming 60 MiB with 10 bytes behind it: nothing that size is allocated.
        #expect(Self.ivfError(Self.ivfHeader() + [0, 0, 0xC0, 0x03] + [UInt8](repeating: 0, count: 18))
            == "hostile.ivf: byte 32: file ends inside a frame: header says 62914560 bytes, 10 left")
    }

    static func adts(length: Int, channels: UInt8 = 2) -> [UInt8] {
        // MPEG-4, no CRC, AAC LC, 44100 Hz (index 4).
        [0xFF, 0xF1, 0x50 | (channels >> 2), (channels & 3) << 6 | UInt8((length >> 11) & 3),
         UInt8((length >> 3) & 0xFF), UInt8((length & 7) << 5 | 0x1F), 0xFC]
    }

    static func adtsError(_ bytes: [UInt8]) -> String? {
        do {
            let reader = try ADTSReader(bytes: bytes, name: "hostile.aac")
            while try reader.next() != nil {}
        } catch let e as ElementaryStreamError {
            return e.description
        } catch {
            Issue.record("unexpected error \(error)")
        }
        return nil
    }

    @Test func adtsBogusLengths() {
        let good = Self.adts(length: 10) + [1, 2, 3]
        #expect(Self.adtsError(good + Self.adts(length: 3)) == "hostile.aac: byte 13: frame length 3 is not above the 7-byte header")
        #expect(Self.adtsError(good + Self.adts(length: 8191) + [0, 0])
            == "hostile.aac: byte 10: file ends inside a frame: header says 8191 bytes, 9 left")
        #expect(Self.adtsError(Self.adts(length: 10, channels: 0) + [1, 2, 3])
            == "hostile.aac: byte 2: channel configuration 0 (channels in a program config element) is not supported; expected 1…7")
    }

    // Rescaling a packet timestamp into a muxer timescale.

    @Test func rescaleReportsOverflowInsteadOfTrapping() {
        let tb = Rational(1, 30)
        #expect(MediaTime.rescale(Int64.max - 10, timeBase: tb, to: 15360) == nil)
        #expect(MediaTime.rescale(Int64.min, timeBase: tb, to: 15360) == nil)
        #expect(MediaTime.rescale(Int64.max, timeBase: Rational(1, 1), to: 1) == Int64.max)
        // Exact where it divides, rounded half away from zero elsewhere (3 × 1001/30000 s at 1 kHz).
        #expect(MediaTime.rescale(3, timeBase: Rational(1001, 30000), to: 1000) == 100)
        #expect(MediaTime.rescale(-3, timeBase: Rational(1001, 30000), to: 1000) == -100)
        #expect(MediaTime.rescale(1, timeBase: Rational(1, 2), to: 1) == 1)
        #expect(MediaTime.rescale(-1, timeBase: Rational(1, 2), to: 1) == -1)
        #expect(MediaTime(value: Int64.max - 10, timescale: 30).convertedReportingOverflow(to: 15360) == nil)
        #expect(MediaTime(value: Int64.max - 10, timescale: 30).converted(to: 15360).value == Int64.max)
    }

    @Test func muxerRefusesTheMostNegativeTimestamp() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let muxer = try MP4Muxer(path: dir.file("out.mp4"))
        let track = try muxer.addAudioTrack(codec: .aac, sampleRate: 44100, channels: 2,
                                            configuration: .aac(AACConfiguration(audioSpecificConfig: [0x12, 0x10], sampleRate: 44100, channels: 2, objectType: 2)))
        let sample = MP4Sample(data: [1, 2, 3], pts: Int64.min, dts: Int64.min, duration: 1024, isSync: true)
        #expect(throws: MP4MuxerError.invalidSample(track: "track 1 (audio aac)", sample: 0,
                                                    reason: "pts -9223372036854775808 / dts -9223372036854775808 beyond ±739875225600 ticks (2^24 s)")) {
            try muxer.append(sample, to: track)
        }
    }
}
