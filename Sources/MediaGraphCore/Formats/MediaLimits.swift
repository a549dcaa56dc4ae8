/// Limits on what the readers of media files accept (frame sizes, rates, reorder depths, sizes
/// of the units they buffer). Input beyond them is rejected with a message that names the file,
/// the byte offset and the limit, instead of exhausting memory or overflowing arithmetic.
/// Docs/limits.md lists every reader's limits and why each value was chosen.
public enum MediaLimits {
    /// Largest width or height of a video frame: what x264, x265 and libvpx accept.
    public static let maxDimension = 16384

    /// Largest frame area in pixels, 2^26 (8192 × 8192, 16384 × 4096). The highest levels of
    /// H.264, HEVC and VP9 stop at 35.7 Mpx (8K UHD is 33.2 Mpx), so this leaves a factor of
    /// two; a frame then takes at most 256 MiB even as rgba, so the few frames in flight in a
    /// graph stay within a few hundred MiB per stream. (ffmpeg's av_image_check_size2 stops at
    /// about 2^28.)
    public static let maxPixels = 1 << 26

    /// Largest numerator or denominator of a frame rate or time base read from a file: the
    /// `int` fields of libavcodec's AVRational (and the 32-bit fields of MP4 and IVF).
    public static let maxRateTerm = Int64(Int32.max)

    /// Largest reorder depth: H.264 max_num_reorder_frames and HEVC sps_max_num_reorder_pics
    /// cannot exceed the largest decoded picture buffer, MaxDpbFrames = 16 (ITU-T H.264 A.3.1,
    /// E.2.1; H.265 A.4.2).
    public static let maxReorderDepth = 16

    /// Largest number of access units read ahead of the oldest one whose presentation position
    /// is still unknown (a picture whose picture order count keeps it waiting while later ones
    /// are output). A conforming stream needs at most about twice the reorder depth.
    public static let maxPicturesAwaitingOutput = 64

    /// Largest total size of the access units waiting for their presentation position.
    public static let maxBytesAwaitingOutput = 256 << 20

    /// Largest access unit (one coded picture with its parameter sets and SEI) of an Annex B
    /// stream: above the largest coded picture buffer of any H.264 or HEVC level (about 120 MB).
    public static let maxAccessUnitSize = 128 << 20

    /// Largest number of NAL units in one access unit (slices, SEI, parameter sets).
    public static let maxNALUnitsPerAccessUnit = 65536

    /// Largest parameter set (VPS/SPS/PPS): avcC and hvcC store their lengths in 16 bits.
    public static let maxParameterSetSize = 65535

    /// Largest frame of an IVF file (VP8/VP9); the largest VP9 level's picture buffer is 60 MB.
    public static let maxIVFFrameSize = 64 << 20

    /// Largest number of channels of raw audio read from a file.
    public static let maxAudioChannels = 8

    /// Largest audio sample rate read from a file (the highest rate of DXD/DSD-style PCM).
    public static let maxSampleRate = 768_000

    /// Largest subtitle packet (one cue's text or ASS event line): a cue that fills a screen is a
    /// few kilobytes; 1 MiB leaves room for long styled karaoke lines without letting a hostile
    /// file make every buffered cue large.
    public static let maxSubtitlePacketSize = 1 << 20

    /// Largest subtitle header (ASS script info and styles, a WebVTT header): files with
    /// hundreds of styles stay far below 4 MiB.
    public static let maxSubtitleHeaderSize = 4 << 20

    /// Why a frame size is not accepted ("width 99999 is above the limit of 16384"), or nil
    /// when it is within the limits.
    public static func frameSizeProblem(width: Int, height: Int) -> String? {
        if width < 1 || width > maxDimension {
            return width < 1 ? "width \(width) is not positive" : "width \(width) is above the limit of \(maxDimension)"
        }
        if height < 1 || height > maxDimension {
            return height < 1 ? "height \(height) is not positive" : "height \(height) is above the limit of \(maxDimension)"
        }
        if width * height > maxPixels {
            return "frame size \(width)x\(height) has \(width * height) pixels, above the limit of \(maxPixels) (2^26)"
        }
        return nil
    }

    /// Why a frame rate or time base `num`/`den` is not accepted, or nil when both terms are in
    /// 1…`maxRateTerm`. `what` names it in the message ("frame rate").
    public static func rateProblem(_ what: String, num: Int64, den: Int64) -> String? {
        guard num > 0, den > 0 else { return "\(what) \(num)/\(den) is not positive" }
        guard num <= maxRateTerm, den <= maxRateTerm else {
            return "\(what) \(num)/\(den) has a term above the limit of \(maxRateTerm)"
        }
        return nil
    }
}
