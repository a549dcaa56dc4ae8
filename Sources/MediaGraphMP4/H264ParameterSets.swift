import MediaGraphCore

/// The fields of an H.264 sequence parameter set (ITU-T H.264 7.3.2.1) that muxing and
/// timestamping need: size, chroma format, picture order count parameters and VUI timing.
public struct H264SequenceParameterSet: Equatable, Sendable {
    public var profileIDC: UInt8 = 0
    public var levelIDC: UInt8 = 0
    public var id: UInt32 = 0
    public var chromaFormatIDC: UInt32 = 1
    public var separateColourPlane = false
    public var bitDepthLuma: UInt32 = 8
    public var bitDepthChroma: UInt32 = 8
    public var log2MaxFrameNum: UInt32 = 4
    public var picOrderCntType: UInt32 = 0
    public var log2MaxPicOrderCntLsb: UInt32 = 4
    public var deltaPicOrderAlwaysZero = false
    public var offsetForNonRefPic: Int32 = 0
    public var offsetForTopToBottomField: Int32 = 0
    public var offsetForRefFrame: [Int32] = []
    public var maxNumRefFrames: UInt32 = 0
    public var frameMbsOnly = true
    public var width = 0
    public var height = 0
    /// VUI timing: a frame lasts 2 × numUnitsInTick / timeScale seconds (frame coding).
    public var numUnitsInTick: UInt32 = 0
    public var timeScale: UInt32 = 0
    public var fixedFrameRate = false
    /// VUI bitstream restriction: frames that may precede another in decode order and follow it
    /// in output order; nil when the stream does not say.
    public var maxNumReorderFrames: UInt32?
    public var fullRange = false
    public var colourPrimaries: UInt8 = 2
    public var transferCharacteristics: UInt8 = 2
    public var matrixCoefficients: UInt8 = 2

    /// Frame rate from the VUI timing information, if the stream carries it.
    public var vuiFrameRate: Rational? {
        guard numUnitsInTick > 0, timeScale > 0 else { return nil }
        return Rational(Int64(timeScale), 2 * Int64(numUnitsInTick))
    }

    /// Parses a NAL unit (header byte included, emulation prevention still present). Every
    /// field is checked against the range ITU-T H.264 7.4.2.1.1 gives it, and the picture size
    /// against `MediaLimits`; errors name the field.
    public init<C: Collection>(nal: C) throws where C.Element == UInt8 {
        guard nal.count <= MediaLimits.maxParameterSetSize else {
            throw H264SyntaxError("sequence parameter set of \(nal.count) bytes is above the limit of \(MediaLimits.maxParameterSetSize) (avcC stores 16-bit lengths)")
        }
        var r = BitReader(NALUnits.rbsp(nal.dropFirst()))
        do {
            profileIDC = UInt8(try r.bits(8))
            try r.skip(8)
            levelIDC = UInt8(try r.bits(8))
            id = try r.ue("seq_parameter_set_id", max: 31)
            if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profileIDC) {
                chromaFormatIDC = try r.ue("chroma_format_idc", max: 3)
                if chromaFormatIDC == 3 { separateColourPlane = try r.flag() }
                bitDepthLuma = try r.ue("bit_depth_luma_minus8", max: 6) + 8
                bitDepthChroma = try r.ue("bit_depth_chroma_minus8", max: 6) + 8
                try r.skip(1) // qpprime_y_zero_transform_bypass_flag
                if try r.flag() { // seq_scaling_matrix_present_flag
                    for i in 0..<(chromaFormatIDC == 3 ? 12 : 8) where try r.flag() {
                        try Self.skipScalingList(&r, size: i < 6 ? 16 : 64)
                    }
                }
            }
            log2MaxFrameNum = try r.ue("log2_max_frame_num_minus4", max: 12) + 4
            picOrderCntType = try r.ue("pic_order_cnt_type", max: 2)
            if picOrderCntType == 0 {
                log2MaxPicOrderCntLsb = try r.ue("log2_max_pic_order_cnt_lsb_minus4", max: 12) + 4
            } else if picOrderCntType == 1 {
                deltaPicOrderAlwaysZero = try r.flag()
                offsetForNonRefPic = try r.se()
                offsetForTopToBottomField = try r.se()
                let n = try r.ue("num_ref_frames_in_pic_order_cnt_cycle", max: 255)
                for _ in 0..<n { offsetForRefFrame.append(try r.se()) }
            }
            maxNumRefFrames = try r.ue("max_num_ref_frames", max: UInt32(MediaLimits.maxReorderDepth))
            try r.skip(1) // gaps_in_frame_num_value_allowed_flag
            // The coded size in macroblocks: bounded first, so the products below stay small.
            let maxMbs = UInt32(MediaLimits.maxDimension / 16)
            let widthMbs = Int(try r.ue("pic_width_in_mbs_minus1", max: maxMbs - 1)) + 1
            let heightMapUnits = Int(try r.ue("pic_height_in_map_units_minus1", max: maxMbs - 1)) + 1
            frameMbsOnly = try r.flag()
            if !frameMbsOnly { try r.skip(1) }
            try r.skip(1) // direct_8x8_inference_flag
            width = widthMbs * 16
            height = heightMapUnits * 16 * (frameMbsOnly ? 1 : 2)
            if try r.flag() { // frame_cropping_flag
                let l = Int(try r.ue()), rr = Int(try r.ue()), t = Int(try r.ue()), b = Int(try r.ue())
                let subW = (chromaFormatIDC == 1 || chromaFormatIDC == 2) ? 2 : 1
                let subH = chromaFormatIDC == 1 ? 2 : 1
                let cropX = (chromaFormatIDC == 0 || separateColourPlane) ? 1 : subW
                let cropY = ((chromaFormatIDC == 0 || separateColourPlane) ? 1 : subH) * (frameMbsOnly ? 1 : 2)
                // Each offset < 2^32 and each factor ≤ 4: no overflow in 64 bits.
                guard (l + rr) * cropX < width, (t + b) * cropY < height else {
                    throw H264SyntaxError("frame cropping (left \(l), right \(rr), top \(t), bottom \(b)) leaves nothing of the \(width)x\(height) coded picture")
                }
                width -= (l + rr) * cropX
                height -= (t + b) * cropY
            }
            if let problem = MediaLimits.frameSizeProblem(width: width, height: height) {
                throw H264SyntaxError(problem)
            }
            if try r.flag() { try parseVUI(&r) }
        } catch is BitReader.EndOfData {
            throw H264SyntaxError("sequence parameter set ends early")
        } catch let e as H264SyntaxError {
            throw H264SyntaxError("sequence parameter set: \(e.description)")
        }
    }

    private mutating func parseVUI(_ r: inout BitReader) throws {
        if try r.flag() { // aspect_ratio_info_present_flag
            if try r.bits(8) == 255 { try r.skip(32) }
        }
        if try r.flag() { try r.skip(1) } // overscan
        if try r.flag() { // video_signal_type_present_flag
            try r.skip(3)
            fullRange = try r.flag()
            if try r.flag() {
                colourPrimaries = UInt8(try r.bits(8))
                transferCharacteristics = UInt8(try r.bits(8))
                matrixCoefficients = UInt8(try r.bits(8))
            }
        }
        if try r.flag() { _ = try r.ue(); _ = try r.ue() } // chroma_loc_info
        if try r.flag() { // timing_info_present_flag
            numUnitsInTick = try r.bits(32)
            timeScale = try r.bits(32)
            fixedFrameRate = try r.flag()
        }
        let nalHRD = try r.flag()
        if nalHRD { try Self.skipHRD(&r) }
        let vclHRD = try r.flag()
        if vclHRD { try Self.skipHRD(&r) }
        if nalHRD || vclHRD { try r.skip(1) } // low_delay_hrd_flag
        try r.skip(1) // pic_struct_present_flag
        if try r.flag() { // bitstream_restriction_flag
            try r.skip(1)
            for _ in 0..<4 { _ = try r.ue() }
            // At most MaxDpbFrames (16): the reorder buffer is sized by it.
            maxNumReorderFrames = try r.ue("max_num_reorder_frames", max: UInt32(MediaLimits.maxReorderDepth))
            _ = try r.ue() // max_dec_frame_buffering
        }
    }

    private static func skipHRD(_ r: inout BitReader) throws {
        let count = try r.ue("cpb_cnt_minus1", max: 31) + 1
        try r.skip(8)
        for _ in 0..<count { _ = try r.ue(); _ = try r.ue(); try r.skip(1) }
        try r.skip(20)
    }

    private static func skipScalingList(_ r: inout BitReader, size: Int) throws {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size where next != 0 {
            next = (last + (try r.se("delta_scale", -128...127)) + 256) % 256
            last = next == 0 ? last : next
        }
    }
}

/// The fields of an H.264 picture parameter set that slice headers depend on.
public struct H264PictureParameterSet: Equatable, Sendable {
    public var id: UInt32
    public var spsID: UInt32
    public var bottomFieldPicOrderInFramePresent: Bool

    public init<C: Collection>(nal: C) throws where C.Element == UInt8 {
        guard nal.count <= MediaLimits.maxParameterSetSize else {
            throw H264SyntaxError("picture parameter set of \(nal.count) bytes is above the limit of \(MediaLimits.maxParameterSetSize) (avcC stores 16-bit lengths)")
        }
        var r = BitReader(NALUnits.rbsp(nal.dropFirst(), limit: 16))
        do {
            id = try r.ue()
            spsID = try r.ue()
            try r.skip(1) // entropy_coding_mode_flag
            bottomFieldPicOrderInFramePresent = try r.flag()
        } catch {
            throw H264SyntaxError("picture parameter set ends early")
        }
        guard id < 256, spsID < 32 else { throw H264SyntaxError("parameter set id out of range (pps \(id), sps \(spsID))") }
    }
}

/// The start of an H.264 slice header: enough to compute the picture order count.
struct H264SliceHeader {
    var firstMbInSlice: UInt32 = 0
    var sliceType: UInt32 = 0
    var ppsID: UInt32 = 0
    var frameNum: UInt32 = 0
    var fieldPic = false
    var bottomField = false
    var picOrderCntLsb: UInt32 = 0
    var deltaPicOrderCntBottom: Int32 = 0
    var deltaPicOrderCnt0: Int32 = 0
    var deltaPicOrderCnt1: Int32 = 0

    /// Parses the header of a slice NAL; `sps(ppsID)` looks up the active parameter sets.
    init<C: Collection>(nal: C, lookup: (UInt32) -> (H264SequenceParameterSet, H264PictureParameterSet)?) throws
    where C.Element == UInt8 {
        guard let header = nal.first else { throw H264SyntaxError("empty slice NAL unit") }
        let isIDR = NALUnits.h264Type(header) == 5
        var r = BitReader(NALUnits.rbsp(nal.dropFirst(), limit: 48))
        do {
            firstMbInSlice = try r.ue()
            sliceType = try r.ue()
            ppsID = try r.ue()
            guard let (sps, pps) = lookup(ppsID) else {
                throw H264SyntaxError("slice refers to picture parameter set \(ppsID), which the stream has not defined")
            }
            if sps.separateColourPlane { try r.skip(2) }
            frameNum = try r.bits(Int(sps.log2MaxFrameNum))
            if !sps.frameMbsOnly {
                fieldPic = try r.flag()
                if fieldPic { bottomField = try r.flag() }
            }
            if isIDR { _ = try r.ue() }
            if sps.picOrderCntType == 0 {
                picOrderCntLsb = try r.bits(Int(sps.log2MaxPicOrderCntLsb))
                if pps.bottomFieldPicOrderInFramePresent && !fieldPic { deltaPicOrderCntBottom = try r.se() }
            }
            if sps.picOrderCntType == 1 && !sps.deltaPicOrderAlwaysZero {
                deltaPicOrderCnt0 = try r.se()
                if pps.bottomFieldPicOrderInFramePresent && !fieldPic { deltaPicOrderCnt1 = try r.se() }
            }
        } catch is BitReader.EndOfData {
            throw H264SyntaxError("slice header ends early")
        }
    }
}

/// A malformed H.264 header.
struct H264SyntaxError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

import MediaGraphCore
