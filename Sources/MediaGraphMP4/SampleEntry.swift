import MediaGraphCore

/// The sample description (stsd entry) of a track: avc1+avcC, hvc1+hvcC, vp09/vp08+vpcC (each
/// followed by `colr` and `pasp` when the track's metadata has them, as ffmpeg orders them),
/// mp4a+esds for AAC (object type 0x40) and MP3 (0x6B), Opus+dOps.
enum SampleEntry {
    static func write(_ w: inout ByteWriter, track: MP4TrackDescription, configuration: CodecConfiguration,
                      maxSampleSize: Int, averageBitrate: Int) {
        switch configuration {
        case .h264(let c):
            visual(&w, "avc1", track) { w in w.box("avcC") { avcC(&$0, c) } }
        case .hevc(let c):
            visual(&w, "hvc1", track) { w in w.box("hvcC") { hvcC(&$0, c) } }
        case .vpx(let c):
            let body: (inout ByteWriter) -> Void = { w in w.fullBox("vpcC", version: 1, flags: 0) { vpcC(&$0, c) } }
            if track.codec == .vp8 { visual(&w, "vp08", track, body) } else { visual(&w, "vp09", track, body) }
        case .aac(let c):
            // the track's rate and channels, as ffmpeg writes the stream's (for HE-AAC the
            // AudioSpecificConfig's core rate is half the output rate)
            mp4a(&w, track, objectType: 0x40, decoderSpecificInfo: c.audioSpecificConfig, channels: track.channels,
                 sampleRate: track.sampleRate, maxSampleSize: maxSampleSize, averageBitrate: averageBitrate)
        case .mp3:
            mp4a(&w, track, objectType: 0x6B, decoderSpecificInfo: [], channels: track.channels,
                 sampleRate: track.sampleRate, maxSampleSize: maxSampleSize, averageBitrate: averageBitrate)
        case .opus(let c):
            opus(&w, c)
        case .other:
            break   // refused by MP4Muxer.check before a sample entry is written
        }
    }

    private static func visual(_ w: inout ByteWriter, _ type: StaticString, _ track: MP4TrackDescription,
                               _ config: (inout ByteWriter) -> Void) {
        w.box(type) { w in
            w.zeros(6)
            w.u16(1) // data_reference_index
            w.zeros(16) // pre_defined, reserved, pre_defined[3]
            w.u16(UInt16(clamping: track.width))
            w.u16(UInt16(clamping: track.height))
            w.u32(0x0048_0000) // 72 dpi
            w.u32(0x0048_0000)
            w.u32(0)
            w.u16(1) // frame_count
            w.zeros(32) // compressorname (empty Pascal string)
            w.u16(0x0018)
            w.u16(0xFFFF)
            config(&w)
            if let c = track.metadata.colour { colr(&w, c) }
            if let a = track.metadata.nonSquareAspect { pasp(&w, a) }
        }
    }

    /// Colour description, nclx (ISO/IEC 14496-12 12.1.5): H.273 code points and the range.
    static func colr(_ w: inout ByteWriter, _ c: MP4Colour) {
        w.box("colr") { w in
            w.fourCC("nclx")
            w.u16(UInt16(clamping: c.primaries))
            w.u16(UInt16(clamping: c.transfer))
            w.u16(UInt16(clamping: c.matrix))
            w.u8(c.fullRange ? 0x80 : 0)
        }
    }

    /// Pixel aspect ratio (ISO/IEC 14496-12 12.1.4), reduced to 32-bit terms.
    static func pasp(_ w: inout ByteWriter, _ a: Rational) {
        var (h, v) = (a.num, a.den)
        while h > Int64(UInt32.max) || v > Int64(UInt32.max) { h >>= 1; v >>= 1 }
        w.box("pasp") { w in
            w.u32(UInt32(max(1, h)))
            w.u32(UInt32(max(1, v)))
        }
    }

    static func avcC(_ w: inout ByteWriter, _ c: H264Configuration) {
        w.u8(1)
        w.u8(c.profileIDC)
        w.u8(c.constraintFlags)
        w.u8(c.levelIDC)
        w.u8(0xFC | 3) // 4-byte NAL lengths
        w.u8(0xE0 | UInt8(min(c.sps.count, 31)))
        for s in c.sps.prefix(31) { w.u16(UInt16(s.count)); w.append(s) }
        w.u8(UInt8(min(c.pps.count, 255)))
        for p in c.pps.prefix(255) { w.u16(UInt16(p.count)); w.append(p) }
        // High profiles carry chroma format and bit depths (ISO/IEC 14496-15 5.3.3.1.2): those
        // whose SPS codes them, High 4:4:4 Predictive (244) among them, as ffmpeg writes it.
        if [100, 110, 122, 144, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(c.profileIDC), let first = c.sps.first,
           let sps = try? H264SequenceParameterSet(nal: first) {
            w.u8(0xFC | UInt8(sps.chromaFormatIDC & 3))
            w.u8(0xF8 | UInt8((sps.bitDepthLuma - 8) & 7))
            w.u8(0xF8 | UInt8((sps.bitDepthChroma - 8) & 7))
            w.u8(0)
        }
    }

    static func hvcC(_ w: inout ByteWriter, _ c: HEVCConfiguration) {
        let sps = c.sps.first.flatMap { try? HEVCSequenceParameterSet(nal: $0) }
        w.u8(1)
        if let ptl = sps?.profileTierLevel, ptl.count == 12 { w.append(ptl) } else { w.zeros(12) }
        w.u16(0xF000) // min_spatial_segmentation_idc 0
        w.u8(0xFC) // parallelismType 0
        w.u8(0xFC | UInt8((sps?.chromaFormatIDC ?? 1) & 3))
        w.u8(0xF8 | UInt8(((sps?.bitDepthLuma ?? 8) - 8) & 7))
        w.u8(0xF8 | UInt8(((sps?.bitDepthChroma ?? 8) - 8) & 7))
        w.u16(0) // avgFrameRate unknown
        let layers = UInt8(min(sps?.maxSubLayers ?? 1, 7))
        w.u8(layers << 3 | (sps?.temporalIDNesting == true ? 1 << 2 : 0) | 3)
        let arrays: [(UInt8, [[UInt8]])] = [(32, c.vps), (33, c.sps), (34, c.pps)].filter { !$0.1.isEmpty }
        w.u8(UInt8(arrays.count))
        for (type, nals) in arrays {
            w.u8(0x80 | type) // array_completeness = 1
            w.u16(UInt16(nals.count))
            for n in nals { w.u16(UInt16(n.count)); w.append(n) }
        }
    }

    static func vpcC(_ w: inout ByteWriter, _ c: VPXConfiguration) {
        w.u8(c.profile)
        w.u8(c.level)
        w.u8((c.bitDepth & 0xF) << 4 | (c.chromaSubsampling & 7) << 1 | (c.fullRange ? 1 : 0))
        w.u8(c.colourPrimaries)
        w.u8(c.transferCharacteristics)
        w.u8(c.matrixCoefficients)
        w.u16(0) // codecInitializationDataSize
    }

    /// The fields every audio sample entry starts with (ISO/IEC 14496-12 12.2.3).
    private static func audioFields(_ w: inout ByteWriter, channels: Int, sampleRate: Int) {
        w.zeros(6)
        w.u16(1) // data_reference_index
        w.zeros(8)
        w.u16(UInt16(clamping: channels))
        w.u16(16) // samplesize
        w.u32(0)
        w.u32(sampleRate <= 0xFFFF ? UInt32(sampleRate) << 16 : 0)
    }

    /// mp4a + esds (ISO/IEC 14496-14 5.6): objectTypeIndication 0x40 (MPEG-4 audio, with its
    /// AudioSpecificConfig as DecoderSpecificInfo) or 0x6B (MPEG-1 audio: MP3 frames describe
    /// themselves, so there is none).
    private static func mp4a(_ w: inout ByteWriter, _ track: MP4TrackDescription, objectType: UInt8, decoderSpecificInfo dsi: [UInt8],
                             channels: Int, sampleRate: Int, maxSampleSize: Int, averageBitrate: Int) {
        w.box("mp4a") { w in
            audioFields(&w, channels: channels, sampleRate: sampleRate)
            esds(&w, track, objectType: objectType, decoderSpecificInfo: dsi, maxSampleSize: maxSampleSize, averageBitrate: averageBitrate)
        }
    }

    /// The esds box of an mp4a entry (also inside a QuickTime `wave` atom).
    static func esds(_ w: inout ByteWriter, _ track: MP4TrackDescription, objectType: UInt8, decoderSpecificInfo dsi: [UInt8],
                     maxSampleSize: Int, averageBitrate: Int) {
        w.fullBox("esds", version: 0, flags: 0) { w in
            let dsiLength = dsi.isEmpty ? 0 : 5 + dsi.count
            // ES_Descriptor > DecoderConfigDescriptor > DecoderSpecificInfo, SLConfigDescriptor
            descriptor(&w, tag: 0x03, length: 3 + (5 + 13 + dsiLength) + (5 + 1))
            w.u16(UInt16(track.id))
            w.u8(0)
            descriptor(&w, tag: 0x04, length: 13 + dsiLength)
            w.u8(objectType)
            w.u8(0x15) // audio stream
            w.u24(UInt32(min(maxSampleSize, 0xFF_FFFF)))
            w.u32(UInt32(clamping: averageBitrate)) // maxBitrate
            w.u32(UInt32(clamping: averageBitrate))
            if !dsi.isEmpty {
                descriptor(&w, tag: 0x05, length: dsi.count)
                w.append(dsi)
            }
            descriptor(&w, tag: 0x06, length: 1)
            w.u8(0x02)
        }
    }

    /// Opus + dOps (Encapsulation of Opus in ISOBMFF 4.3): the OpusHead fields big-endian;
    /// the sample rate field is always 48 kHz, the rate Opus decodes at.
    private static func opus(_ w: inout ByteWriter, _ c: OpusConfiguration) {
        w.box("Opus") { w in
            audioFields(&w, channels: c.channels, sampleRate: 48000)
            w.box("dOps") { w in
                w.u8(0) // Version
                w.u8(UInt8(clamping: c.channels))
                w.u16(UInt16(clamping: c.preSkip))
                w.u32(UInt32(clamping: c.inputSampleRate))
                w.u16(UInt16(bitPattern: c.outputGain))
                w.u8(c.mappingFamily)
                if c.mappingFamily != 0 {
                    w.u8(c.streamCount)
                    w.u8(c.coupledCount)
                    w.append(c.channelMapping)
                }
            }
        }
    }

    /// An MPEG-4 descriptor header with its length in the 4-byte expandable form.
    private static func descriptor(_ w: inout ByteWriter, tag: UInt8, length: Int) {
        w.u8(tag)
        w.u8(0x80 | UInt8((length >> 21) & 0x7F))
        w.u8(0x80 | UInt8((length >> 14) & 0x7F))
        w.u8(0x80 | UInt8((length >> 7) & 0x7F))
        w.u8(UInt8(length & 0x7F))
    }
}
