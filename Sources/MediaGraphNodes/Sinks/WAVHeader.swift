import MediaGraphCodecs
import MediaGraphCore

/// The header of a WAV file as ffmpeg 5.1's wav muxer writes it with `-bitexact` (riffenc.c's
/// `ff_put_wav_header`, no LIST/INFO chunk): RIFF, fmt (PCMWAVEFORMAT, or
/// WAVE_FORMAT_EXTENSIBLE for a layout other than mono/stereo, a rate above 48 kHz or more than
/// 16 bits), fact for float when the output is seekable, then the data chunk's header. Sizes
/// not yet known are 0xFFFFFFFF, which is also what a pipe keeps.
public struct WAVHeader: Sendable {
    /// The sample formats a WAV file holds, interleaved, by the `format` param's names.
    public static let sampleFormats: [String: SampleFormat] = ["s16": .s16, "s32": .s32, "f32": .f32, "u8": .u8]

    public let sampleFormat: SampleFormat
    public let sampleRate: Int
    public let channels: Int
    /// The channel mask written in the extensible format (the input's layout, or the default
    /// layout for the channel count, which ffmpeg guesses for a stream that names none).
    public let channelMask: UInt64
    /// Whether the fact chunk (sample count) is written: float only, and only where its count
    /// can be patched at the end, as ffmpeg does.
    public let hasFact: Bool

    public init(format: AudioFormat, seekable: Bool) {
        sampleFormat = format.sampleFormat
        sampleRate = format.sampleRate
        channels = format.channels
        let layout = format.channelLayout
        channelMask = layout.mask != 0 && layout.mask.nonzeroBitCount == format.channels
            ? layout.mask : AudioResampler.defaultLayout(channels: format.channels).mask
        hasFact = format.sampleFormat == .f32 && seekable
    }

    var bitsPerSample: Int { sampleFormat.bytesPerSample * 8 }
    /// Bytes of one sample of every channel.
    public var blockAlign: Int { sampleFormat.bytesPerSample * channels }
    /// WAVE_FORMAT_IEEE_FLOAT (3) for float, WAVE_FORMAT_PCM (1) for the integers.
    var formatTag: UInt16 { sampleFormat == .f32 ? 3 : 1 }
    var isExtensible: Bool {
        (channelMask != ChannelLayout.mono.mask && channelMask != ChannelLayout.stereo.mask)
            || sampleRate > 48000 || bitsPerSample > 16
    }

    /// Bytes before the samples.
    public var size: Int { 12 + 8 + (isExtensible ? 40 : 16) + (hasFact ? 12 : 0) + 8 }
    /// Where the RIFF size, the fact sample count and the data size go.
    var riffSizeOffset: UInt64 { 4 }
    var factOffset: UInt64 { UInt64(size - 8 - 4) }
    var dataSizeOffset: UInt64 { UInt64(size - 4) }

    /// The most sample bytes a WAV file can hold: its 32-bit sizes must count the data chunk
    /// (below 0xFFFFFFFF, which means "unknown"), the header and a pad byte, in whole blocks.
    public var maximumDataBytes: UInt64 {
        let room = UInt64(UInt32.max) - UInt64(size - 8) - 1
        return room - room % UInt64(blockAlign)
    }

    /// The header with the sizes unknown (0xFFFFFFFF) and a zero sample count.
    public var bytes: [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(size)
        func u16(_ v: UInt16) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) { for s in stride(from: 0, to: 32, by: 8) { b.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        func tag(_ s: String) { b += Array(s.utf8) }
        tag("RIFF"); u32(.max); tag("WAVE")
        tag("fmt "); u32(isExtensible ? 40 : 16)
        u16(isExtensible ? 0xFFFE : formatTag)
        u16(UInt16(channels))
        u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * blockAlign))
        u16(UInt16(blockAlign))
        u16(UInt16(bitsPerSample))
        if isExtensible {
            u16(22)                              // cbSize: the extension's bytes
            u16(UInt16(bitsPerSample))           // valid bits per sample
            // ffmpeg leaves out masks of channels beyond WAVE's 18 speaker bits
            u32(channelMask < 0x40000 ? UInt32(channelMask) : 0)
            u32(UInt32(formatTag))               // the sub-format GUID: tag-0000-0010-8000-00aa00389b71
            u32(0x0010_0000); u32(0xAA00_0080); u32(0x719B_3800)
        }
        if hasFact { tag("fact"); u32(4); u32(0) }
        tag("data"); u32(.max)
        return b
    }

    /// The sizes to patch once `dataBytes` sample bytes (and the pad byte an odd count takes)
    /// are written: offset and little-endian value of each.
    public func patches(dataBytes: UInt64) -> [(offset: UInt64, bytes: [UInt8])] {
        func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
        let padded = dataBytes + dataBytes % 2
        var p: [(offset: UInt64, bytes: [UInt8])] = [
            (riffSizeOffset, le(UInt32(UInt64(size - 8) + padded))),
            (dataSizeOffset, le(UInt32(dataBytes))),
        ]
        if hasFact { p.append((factOffset, le(UInt32(truncatingIfNeeded: dataBytes / UInt64(blockAlign))))) }
        return p
    }

    /// Why `dataBytes` more sample bytes do not fit (nil when they do): the message names the
    /// limit and where the audio reached it.
    public func overflow(dataBytes: UInt64) -> String? {
        guard dataBytes > maximumDataBytes else { return nil }
        let samples = maximumDataBytes / UInt64(blockAlign)
        let seconds = samples / UInt64(sampleRate)
        func two(_ v: UInt64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let time = "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
        return "the audio outgrows a WAV file's 32-bit sizes (4 GiB) after \(samples) samples (\(time) of \(channels) channels \(sampleFormat) at \(sampleRate) Hz); "
            + "wavsink does not write RF64 (ffmpeg does only with -rf64) nor a file with wrong sizes: cut the input shorter, use fewer channels or a smaller 'format', or write to a pipe (\"-\"), which has no sizes"
    }
}
