import MediaGraphCore

/// The fields of an HEVC sequence parameter set (ITU-T H.265 7.3.2.2) that hvcC and picture
/// order counts need.
public struct HEVCSequenceParameterSet: Equatable, Sendable {
    public var maxSubLayers: UInt32 = 1
    public var temporalIDNesting = false
    /// general_profile_space … general_level_idc: the 12 bytes hvcC copies.
    public var profileTierLevel: [UInt8] = []
    public var id: UInt32 = 0
    public var chromaFormatIDC: UInt32 = 1
    public var separateColourPlane = false
    public var width = 0
    public var height = 0
    public var bitDepthLuma: UInt32 = 8
    public var bitDepthChroma: UInt32 = 8
    public var log2MaxPicOrderCntLsb: UInt32 = 4
    public var maxNumReorderPics: UInt32 = 0

    /// Parses a NAL unit (2-byte header included, emulation prevention still present). Fields
    /// are checked against the ranges of ITU-T H.265 7.4.3.2.1 and the picture size against
    /// `MediaLimits`; errors name the field.
    public init<C: Collection>(nal: C) throws where C.Element == UInt8 {
        guard nal.count <= MediaLimits.maxParameterSetSize else {
            throw H264SyntaxError("HEVC sequence parameter set of \(nal.count) bytes is above the limit of \(MediaLimits.maxParameterSetSize) (hvcC stores 16-bit lengths)")
        }
        let rbsp = NALUnits.rbsp(nal.dropFirst(2))
        var r = BitReader(rbsp)
        do {
            try r.skip(4)
            maxSubLayers = try r.bits(3) + 1
            temporalIDNesting = try r.flag()
            guard rbsp.count >= 13 else { throw BitReader.EndOfData() }
            profileTierLevel = Array(rbsp[1..<13])
            try r.skip(96)
            var profilePresent: [Bool] = [], levelPresent: [Bool] = []
            for _ in 0..<(maxSubLayers - 1) {
                profilePresent.append(try r.flag())
                levelPresent.append(try r.flag())
            }
            if maxSubLayers > 1 { for _ in (maxSubLayers - 1)..<8 { try r.skip(2) } }
            for i in 0..<Int(maxSubLayers - 1) {
                if profilePresent[i] { try r.skip(88) }
                if levelPresent[i] { try r.skip(8) }
            }
            id = try r.ue("sps_seq_parameter_set_id", max: 15)
            chromaFormatIDC = try r.ue("chroma_format_idc", max: 3)
            if chromaFormatIDC == 3 { separateColourPlane = try r.flag() }
            width = Int(try r.ue("pic_width_in_luma_samples", max: UInt32(MediaLimits.maxDimension)))
            height = Int(try r.ue("pic_height_in_luma_samples", max: UInt32(MediaLimits.maxDimension)))
            if try r.flag() { // conformance_window_flag
                let subW = (chromaFormatIDC == 1 || chromaFormatIDC == 2) ? 2 : 1
                let subH = chromaFormatIDC == 1 ? 2 : 1
                let l = Int(try r.ue()), rr = Int(try r.ue()), t = Int(try r.ue()), b = Int(try r.ue())
                // Each offset < 2^32 and each factor ≤ 2: no overflow in 64 bits.
                guard (l + rr) * subW < width, (t + b) * subH < height else {
                    throw H264SyntaxError("conformance window (left \(l), right \(rr), top \(t), bottom \(b)) leaves nothing of the \(width)x\(height) coded picture")
                }
                width -= (l + rr) * subW
                height -= (t + b) * subH
            }
            if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
                throw H264SyntaxError(problem)
            }
            bitDepthLuma = try r.ue("bit_depth_luma_minus8", max: 8) + 8
            bitDepthChroma = try r.ue("bit_depth_chroma_minus8", max: 8) + 8
            log2MaxPicOrderCntLsb = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12) + 4
            let allLayers = try r.flag()
            let maxDepth = UInt32(MediaLimits.maxReorderDepth)
            for _ in (allLayers ? 0 : maxSubLayers - 1)..<maxSubLayers {
                _ = try r.ue("sps_max_dec_pic_buffering_minus1", max: maxDepth - 1)
                // The reorder buffer is sized by it: at most MaxDpbSize − 1 (16 here).
                maxNumReorderPics = try r.ue("sps_max_num_reorder_pics", max: maxDepth)
                _ = try r.ue()
            }
        } catch is BitReader.EndOfData {
            throw H264SyntaxError("HEVC sequence parameter set ends early")
        } catch let e as H264SyntaxError {
            throw H264SyntaxError("HEVC sequence parameter set: \(e.description)")
        }
        // The VUI timing sits behind many fields; it is optional, so a failure here only means
        // the stream's frame rate is unknown.
        try? parseToVUITiming(&r)
    }

    /// VUI timing: pictures last numUnitsInTick / timeScale seconds.
    public var numUnitsInTick: UInt32 = 0
    public var timeScale: UInt32 = 0

    /// Frame rate from the VUI timing information, if the stream carries it.
    public var vuiFrameRate: Rational? {
        guard numUnitsInTick > 0, timeScale > 0 else { return nil }
        return Rational(Int64(timeScale), Int64(numUnitsInTick))
    }

    private mutating func parseToVUITiming(_ r: inout BitReader) throws {
        for _ in 0..<6 { _ = try r.ue() } // coding/transform block sizes, hierarchy depths
        if try r.flag(), try r.flag() { try Self.skipScalingListData(&r) }
        try r.skip(2) // amp, sample_adaptive_offset
        if try r.flag() { // pcm_enabled_flag
            try r.skip(8)
            _ = try r.ue(); _ = try r.ue()
            try r.skip(1)
        }
        let sets = Int(try r.ue())
        guard sets <= 64 else { throw BitReader.EndOfData() }
        var deltaPocCounts: [Int] = []
        for i in 0..<sets {
            var interPrediction = false
            if i != 0 { interPrediction = try r.flag() }
            if interPrediction {
                try r.skip(1) // delta_rps_sign
                _ = try r.ue() // abs_delta_rps_minus1
                var count = 0
                for _ in 0...deltaPocCounts[i - 1] {
                    let used = try r.flag()
                    let useDelta = used ? true : try r.flag()
                    if useDelta { count += 1 }
                }
                deltaPocCounts.append(count)
            } else {
                let negative = Int(try r.ue()), positive = Int(try r.ue())
                guard negative <= 16, positive <= 16 else { throw BitReader.EndOfData() }
                for _ in 0..<(negative + positive) { _ = try r.ue(); try r.skip(1) }
                deltaPocCounts.append(negative + positive)
            }
        }
        if try r.flag() { // long_term_ref_pics_present_flag
            let n = Int(try r.ue())
            guard n <= 32 else { throw BitReader.EndOfData() }
            for _ in 0..<n { try r.skip(Int(log2MaxPicOrderCntLsb) + 1) }
        }
        try r.skip(2) // temporal mvp, strong intra smoothing
        guard try r.flag() else { return } // vui_parameters_present_flag
        if try r.flag() { if try r.bits(8) == 255 { try r.skip(32) } } // aspect ratio
        if try r.flag() { try r.skip(1) } // overscan
        if try r.flag() { // video signal type
            try r.skip(4)
            if try r.flag() { try r.skip(24) }
        }
        if try r.flag() { _ = try r.ue(); _ = try r.ue() } // chroma location
        try r.skip(3) // neutral chroma, field_seq, frame_field_info
        if try r.flag() { for _ in 0..<4 { _ = try r.ue() } } // default display window
        if try r.flag() { // vui_timing_info_present_flag
            numUnitsInTick = try r.bits(32)
            timeScale = try r.bits(32)
        }
    }

    private static func skipScalingListData(_ r: inout BitReader) throws {
        for sizeID in 0..<4 {
            for _ in stride(from: 0, to: 6, by: sizeID == 3 ? 3 : 1) {
                if try !r.flag() {
                    _ = try r.ue()
                } else {
                    let coefficients = min(64, 1 << (4 + (sizeID << 1)))
                    if sizeID > 1 { _ = try r.se() }
                    for _ in 0..<coefficients { _ = try r.se() }
                }
            }
        }
    }
}

/// The HEVC picture parameter set fields that the first slice segment header depends on.
public struct HEVCPictureParameterSet: Equatable, Sendable {
    public var id: UInt32
    public var spsID: UInt32
    public var dependentSliceSegmentsEnabled: Bool
    public var outputFlagPresent: Bool
    public var numExtraSliceHeaderBits: Int

    public init<C: Collection>(nal: C) throws where C.Element == UInt8 {
        guard nal.count <= MediaLimits.maxParameterSetSize else {
            throw H264SyntaxError("HEVC picture parameter set of \(nal.count) bytes is above the limit of \(MediaLimits.maxParameterSetSize) (hvcC stores 16-bit lengths)")
        }
        var r = BitReader(NALUnits.rbsp(nal.dropFirst(2), limit: 16))
        do {
            id = try r.ue()
            spsID = try r.ue()
            dependentSliceSegmentsEnabled = try r.flag()
            outputFlagPresent = try r.flag()
            numExtraSliceHeaderBits = Int(try r.bits(3))
        } catch {
            throw H264SyntaxError("HEVC picture parameter set ends early")
        }
        guard id < 64, spsID < 16 else { throw H264SyntaxError("HEVC parameter set id out of range") }
    }
}
