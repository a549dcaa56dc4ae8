/// Writes bits MSB-first with the Exp-Golomb codes of H.264/HEVC headers, to build hostile
/// parameter sets and slice headers by hand (ITU-T H.264 7.2 / 9.1).
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func bit(_ b: Bool) {
        if bitCount % 8 == 0 { bytes.append(0) }
        if b { bytes[bytes.count - 1] |= 0x80 >> UInt8(bitCount % 8) }
        bitCount += 1
    }

    mutating func bits(_ value: UInt64, _ n: Int) {
        for i in stride(from: n - 1, through: 0, by: -1) { bit((value >> UInt64(i)) & 1 == 1) }
    }

    /// ue(v): value + 1 in binary after as many zeros as it has bits minus one.
    mutating func ue(_ value: UInt64) {
        let v = value + 1
        let length = 64 - v.leadingZeroBitCount
        bits(0, length - 1)
        bits(v, length)
    }

    /// se(v): positive v as 2v − 1, negative as −2v.
    mutating func se(_ value: Int64) {
        ue(value > 0 ? UInt64(2 * value - 1) : UInt64(-2 * value))
    }

    /// rbsp_trailing_bits: a one, then zeros to the byte boundary.
    mutating func trailing() {
        bit(true)
        while bitCount % 8 != 0 { bit(false) }
    }
}

enum HandMade {
    /// A NAL unit in Annex B form: start code, header bytes, RBSP with emulation prevention.
    static func nal(_ header: [UInt8], _ rbsp: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0, 0, 0, 1] + header
        var zeros = 0
        for b in rbsp {
            if zeros >= 2 && b <= 3 { out.append(3); zeros = 0 }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// Fields of a hand-made H.264 SPS (Main profile unless `profile` says otherwise).
    struct SPS {
        var profile: UInt64 = 77
        var id: UInt64 = 0
        /// High-profile fields (profile 100): chroma_format_idc, bit depths, a scaling list.
        var bitDepthLumaMinus8: UInt64 = 0
        var scalingDelta: Int64?
        var log2MaxFrameNumMinus4: UInt64 = 0
        var pocType: UInt64 = 0
        var log2MaxPocLsbMinus4: UInt64 = 12
        var maxNumRefFrames: UInt64 = 1
        var widthMbsMinus1: UInt64 = 3
        var heightMapUnitsMinus1: UInt64 = 3
        var crop: (UInt64, UInt64, UInt64, UInt64)?
        /// VUI timing (num_units_in_tick, time_scale).
        var timing: (UInt32, UInt32)?
        /// VUI bitstream restriction: max_num_reorder_frames.
        var maxNumReorderFrames: UInt64?
        /// A raw Exp-Golomb code of this many leading zeros in place of seq_parameter_set_id.
        var overlongIDZeros: Int?

        func nal() -> [UInt8] {
            var w = BitWriter()
            w.bits(profile, 8)
            w.bits(0, 8)
            w.bits(30, 8) // level_idc
            if let zeros = overlongIDZeros { w.bits(0, zeros); w.bit(true); w.bits(0, zeros) } else { w.ue(id) }
            if profile == 100 {
                w.ue(1) // chroma_format_idc
                w.ue(bitDepthLumaMinus8)
                w.ue(0) // bit_depth_chroma_minus8
                w.bit(false) // qpprime_y_zero_transform_bypass_flag
                if let d = scalingDelta {
                    w.bit(true) // seq_scaling_matrix_present_flag
                    w.bit(true) // list 0 present
                    w.se(d)
                    for _ in 1..<8 { w.bit(false) }
                } else {
                    w.bit(false)
                }
            }
            w.ue(log2MaxFrameNumMinus4)
            w.ue(pocType)
            if pocType == 0 { w.ue(log2MaxPocLsbMinus4) }
            w.ue(maxNumRefFrames)
            w.bit(false) // gaps_in_frame_num_value_allowed_flag
            w.ue(widthMbsMinus1)
            w.ue(heightMapUnitsMinus1)
            w.bit(true) // frame_mbs_only_flag
            w.bit(true) // direct_8x8_inference_flag
            if let c = crop {
                w.bit(true)
                w.ue(c.0); w.ue(c.1); w.ue(c.2); w.ue(c.3)
            } else {
                w.bit(false)
            }
            let vui = timing != nil || maxNumReorderFrames != nil
            w.bit(vui)
            if vui {
                w.bit(false) // aspect_ratio_info_present_flag
                w.bit(false) // overscan_info_present_flag
                w.bit(false) // video_signal_type_present_flag
                w.bit(false) // chroma_loc_info_present_flag
                if let (units, scale) = timing {
                    w.bit(true)
                    w.bits(UInt64(units), 32)
                    w.bits(UInt64(scale), 32)
                    w.bit(true) // fixed_frame_rate_flag
                } else {
                    w.bit(false)
                }
                w.bit(false) // nal_hrd_parameters_present_flag
                w.bit(false) // vcl_hrd_parameters_present_flag
                w.bit(false) // pic_struct_present_flag
                if let reorder = maxNumReorderFrames {
                    w.bit(true) // bitstream_restriction_flag
                    w.bit(true) // motion_vectors_over_pic_boundaries_flag
                    w.ue(2); w.ue(1); w.ue(16); w.ue(16)
                    w.ue(reorder)
                    w.ue(max(reorder, 1)) // max_dec_frame_buffering
                } else {
                    w.bit(false)
                }
            }
            w.trailing()
            return HandMade.nal([0x67], w.bytes)
        }
    }

    /// An H.264 PPS (id 0 on SPS 0), optionally with bottom_field_pic_order_in_frame_present_flag.
    static func pps(bottomFieldPicOrder: Bool = false) -> [UInt8] {
        var w = BitWriter()
        w.ue(0); w.ue(0)
        w.bit(false) // entropy_coding_mode_flag
        w.bit(bottomFieldPicOrder)
        w.ue(0) // num_slice_groups_minus1
        w.trailing()
        return nal([0x68], w.bytes)
    }

    /// The start of an H.264 I slice (first_mb_in_slice 0) for an SPS with log2_max_frame_num 4
    /// and POC type 0 with a 16-bit lsb; the slice data is left out (the readers stop before it).
    static func slice(idr: Bool, reference: Bool = true, frameNum: UInt64 = 0, pocLsb: UInt64,
                      deltaBottom: Int64? = nil) -> [UInt8] {
        var w = BitWriter()
        w.ue(0) // first_mb_in_slice
        w.ue(7) // slice_type: I
        w.ue(0) // pic_parameter_set_id
        w.bits(frameNum, 4)
        if idr { w.ue(0) } // idr_pic_id
        w.bits(pocLsb, 16)
        if let d = deltaBottom { w.se(d) }
        w.bits(0x5A5A, 16) // stands for the slice data
        w.trailing()
        let refIDC: UInt8 = reference ? 3 : 0
        return nal([refIDC << 5 | (idr ? 5 : 1)], w.bytes)
    }

    /// An HEVC SPS (one sub-layer) whose sps_max_num_reorder_pics and bit depth are given.
    static func hevcSPS(width: UInt64 = 64, height: UInt64 = 64, bitDepthLumaMinus8: UInt64 = 0,
                        maxNumReorderPics: UInt64 = 0) -> [UInt8] {
        var w = BitWriter()
        w.bits(0, 4) // sps_video_parameter_set_id
        w.bits(0, 3) // sps_max_sub_layers_minus1
        w.bit(true) // sps_temporal_id_nesting_flag
        // profile_tier_level: Main profile, level 3.1.
        w.bits(0, 2); w.bit(false); w.bits(1, 5)
        w.bits(0x6000_0000, 32) // compatibility flags
        w.bits(0x9, 4) // progressive, interlaced, non-packed, frame-only
        w.bits(0, 43); w.bit(false)
        w.bits(93, 8) // general_level_idc
        w.ue(0) // sps_seq_parameter_set_id
        w.ue(1) // chroma_format_idc
        w.ue(width)
        w.ue(height)
        w.bit(false) // conformance_window_flag
        w.ue(bitDepthLumaMinus8)
        w.ue(0) // bit_depth_chroma_minus8
        w.ue(4) // log2_max_pic_order_cnt_lsb_minus4
        w.bit(true) // sps_sub_layer_ordering_info_present_flag
        w.ue(4) // sps_max_dec_pic_buffering_minus1
        w.ue(maxNumReorderPics)
        w.ue(0) // sps_max_latency_increase_plus1
        w.trailing()
        return nal([0x42, 0x01], w.bytes)
    }
}
