import MediaGraphCore

/// The sample description (stsd entry) of a track in a QuickTime movie, as ffmpeg's mov muxer
/// writes it: video with QuickTime's version, vendor and quality fields, then avcC/hvcC, `fiel`
/// (ProRes), `colr` of type nclc (when primaries, transfer and matrix are all known) and `pasp`
/// (whenever the aspect is known); sound descriptions of version 0 (16- and 8-bit PCM) or 1
/// (wider PCM, AAC), with a `wave` atom where version 1 needs one, and `chan` for mono and
/// stereo.
enum QuickTimeSampleEntry {
    static func write(_ w: inout ByteWriter, track: MP4TrackDescription, configuration: CodecConfiguration,
                      maxSampleSize: Int, averageBitrate: Int) {
        if let pcm = track.pcm {
            self.pcm(&w, track, pcm)
            return
        }
        switch configuration {
        case .h264(let c):
            visual(&w, "avc1", track) { SampleEntry.avcC(&$0, c) }
        case .hevc(let c):
            visual(&w, "hvc1", track) { SampleEntry.hvcC(&$0, c) }
        case .aac(let c):
            // no decoder buffer size: ffmpeg 5.1 writes one only from an encoder's CPB properties
            aac(&w, track, c, maxSampleSize: 0, averageBitrate: averageBitrate)
        case .other(let codec, _) where codec == .prores:
            visual(&w, track.codecTag ?? "apcn", track, config: nil)
        default:
            break   // refused by MP4Muxer.add before a sample entry is written
        }
    }

    private static func visual(_ w: inout ByteWriter, _ type: String, _ track: MP4TrackDescription,
                               _ record: @escaping (inout ByteWriter) -> Void) {
        let name: StaticString = type == "avc1" ? "avcC" : "hvcC"
        visual(&w, type, track, config: { w in w.box(name) { record(&$0) } })
    }

    private static func visual(_ w: inout ByteWriter, _ type: String, _ track: MP4TrackDescription,
                               config: ((inout ByteWriter) -> Void)?) {
        w.box(text: type) { w in
            w.zeros(6)
            w.u16(1) // data_reference_index
            w.u16(0) // version
            w.u16(0) // revision level
            w.fourCC("FFMP") // vendor, as ffmpeg writes it
            w.u32(0x200) // temporal quality: normal
            w.u32(0x200) // spatial quality: normal
            w.u16(UInt16(clamping: track.width))
            w.u16(UInt16(clamping: track.height))
            w.u32(0x0048_0000) // 72 dpi
            w.u32(0x0048_0000)
            w.u32(0) // data size
            w.u16(1) // frame count
            w.zeros(32) // compressor name (empty Pascal string)
            w.u16(0x0018) // depth
            w.u16(0xFFFF) // no colour table
            config?(&w)
            // ProRes frames are coded progressive: one field
            if track.codec == .prores { w.box("fiel") { $0.u8(1); $0.u8(0) } }
            if let c = track.metadata.colour, let nclc = nclc(c) {
                w.box("colr") { w in
                    w.fourCC("nclc")
                    w.u16(nclc.primaries); w.u16(nclc.transfer); w.u16(nclc.matrix)
                }
            }
            if let a = track.metadata.sampleAspect, a.num > 0, a.den > 0 { SampleEntry.pasp(&w, a) }
        }
    }

    /// The nclc code points ffmpeg 5.1's mov muxer writes for H.273 ones (it maps the values
    /// QuickTime knows and writes 2 for the rest), or nil when primaries, transfer or matrix
    /// is unspecified (ffmpeg then writes no colr in a .mov).
    static func nclc(_ c: MP4Colour) -> (primaries: UInt16, transfer: UInt16, matrix: UInt16)? {
        guard c.primaries != 2, c.transfer != 2, c.matrix != 2 else { return nil }
        let primaries: [Int: UInt16] = [1: 1, 5: 5, 6: 6, 7: 6, 9: 9, 11: 11, 12: 12]
        let transfer: [Int: UInt16] = [1: 1, 6: 1, 7: 7, 16: 16, 17: 17, 18: 18]
        let matrix: [Int: UInt16] = [1: 1, 5: 6, 6: 6, 7: 7, 9: 9]
        return (primaries[c.primaries] ?? 2, transfer[c.transfer] ?? 2, matrix[c.matrix] ?? 2)
    }

    /// The fields every QuickTime sound description starts with (version 0 layout).
    private static func soundFields(_ w: inout ByteWriter, version: UInt16, channels: Int, sampleSize: UInt16,
                                    compressionID: UInt16, sampleRate: Int) {
        w.zeros(6)
        w.u16(1) // data_reference_index
        w.u16(version)
        w.u16(0) // revision level
        w.u32(0) // vendor
        w.u16(UInt16(clamping: channels))
        w.u16(sampleSize)
        w.u16(compressionID)
        w.u16(0) // packet size
        w.u32(sampleRate <= 0xFFFF ? UInt32(sampleRate) << 16 : 0)
    }

    /// Uncompressed sound: 16- and 8-bit samples in a version 0 description, wider ones in
    /// version 1 with the sample sizes and a `wave` atom stating the byte order (`enda`).
    private static func pcm(_ w: inout ByteWriter, _ track: MP4TrackDescription, _ pcm: QuickTimePCM) {
        if QuickTimePCM.needsVersion2(sampleRate: track.sampleRate) {
            lpcm(&w, track, pcm)
            return
        }
        w.box(text: pcm.fourCC) { w in
            soundFields(&w, version: pcm.version1 ? 1 : 0, channels: track.channels,
                        sampleSize: pcm.bytesPerSample == 1 ? 8 : 16, compressionID: 0, sampleRate: track.sampleRate)
            if pcm.version1 {
                w.u32(1) // samples per packet: 1 for uncompressed sound
                w.u32(UInt32(pcm.bytesPerSample)) // bytes per packet (one channel's sample)
                w.u32(UInt32(pcm.bytesPerSample * track.channels)) // bytes per frame
                w.u32(2) // bytes per sample, as ffmpeg writes it
                w.box("wave") { w in
                    w.box("frma") { $0.fourCC(text: pcm.fourCC) }
                    w.box("enda") { $0.u16(pcm.littleEndian ? 1 : 0) }
                    terminator(&w)
                }
            }
            chan(&w, track)
        }
    }

    /// Sound description version 2 (QuickTime File Format, "Sound Sample Description (Version
    /// 2)"), `lpcm`, as ffmpeg writes it for rates above 65535 Hz: the fixed fields say 3
    /// channels, 16 bits, compression ID −2 and rate 1.0, then the size of the struct (72), the
    /// rate as a 64-bit float, channels, 0x7F000000, bits per channel, the format flags, bytes
    /// per frame and 1 frame per packet.
    private static func lpcm(_ w: inout ByteWriter, _ track: MP4TrackDescription, _ pcm: QuickTimePCM) {
        w.box("lpcm") { w in
            soundFields(&w, version: 2, channels: 3, sampleSize: 16, compressionID: 0xFFFE, sampleRate: 1)
            w.u32(72)
            w.u64(Double(track.sampleRate).bitPattern)
            w.u32(UInt32(track.channels))
            w.u32(0x7F00_0000)
            w.u32(UInt32(pcm.bytesPerSample * 8))
            w.u32(pcm.formatFlags)
            w.u32(UInt32(pcm.bytesPerSample * track.channels))
            w.u32(1)
            chan(&w, track)
        }
    }

    /// AAC: an mp4a description of version 1 (variable bit rate: compression ID -2), its esds
    /// inside a `wave` atom behind `frma`, as QuickTime keeps it.
    private static func aac(_ w: inout ByteWriter, _ track: MP4TrackDescription, _ c: AACConfiguration,
                            maxSampleSize: Int, averageBitrate: Int) {
        w.box("mp4a") { w in
            soundFields(&w, version: 1, channels: track.channels, sampleSize: 16, compressionID: 0xFFFE, sampleRate: track.sampleRate)
            // HE-AAC (SBR, PS) frames decode to 2048 samples
            w.u32([5, 29].contains(c.objectType) ? 2048 : 1024) // samples per packet
            w.u32(0) // bytes per packet: variable
            w.u32(0) // bytes per frame: variable
            w.u32(2) // bytes per sample
            w.box("wave") { w in
                w.box("frma") { $0.fourCC("mp4a") }
                w.box("mp4a") { $0.u32(0) }
                SampleEntry.esds(&w, track, objectType: 0x40, decoderSpecificInfo: c.audioSpecificConfig,
                                 maxSampleSize: maxSampleSize, averageBitrate: averageBitrate)
                terminator(&w)
            }
            chan(&w, track)
        }
    }

    /// The empty atom that ends a `wave` atom's list.
    private static func terminator(_ w: inout ByteWriter) {
        w.u32(8)
        w.u32(0)
    }

    /// The channel layout (Core Audio's AudioChannelLayout) for mono and stereo, whose layout
    /// tags are kAudioChannelLayoutTag_Mono (100 << 16 | 1) and _Stereo (101 << 16 | 2); one or
    /// two channels of no stated layout count as these, as ffmpeg lays them out. Other layouts
    /// get none (players then assume the usual order).
    private static func chan(_ w: inout ByteWriter, _ track: MP4TrackDescription) {
        let layout = track.channelLayout
        let tag: UInt32
        if track.channels == 1 && (layout == .mono || layout == .unspecified) {
            tag = 100 << 16 | 1
        } else if track.channels == 2 && (layout == .stereo || layout == .unspecified) {
            tag = 101 << 16 | 2
        } else {
            return
        }
        w.fullBox("chan", version: 0, flags: 0) { w in
            w.u32(tag)
            w.u32(0) // channel bitmap
            w.u32(0) // channel descriptions
        }
    }
}
