import MediaGraphCore

/// Writes MP3 frames to an .mp3 file as ffmpeg's mp3 muxer does: an ID3v2 tag when there are
/// tags or chapters (`ID3v2Tag`), then a Xing/Info frame (zeros until `finish` patches in the counts, the seek table and the LAME tag with
/// the encoder delay and padding), then the frames as they come. To standard output, a FIFO or
/// a device there is no going back, so the frames go out alone, with no Info frame.
public final class MP3Writer {
    private let file: OutputFile
    /// Whether an Info frame leads (a new file that can be patched).
    private let withInfo: Bool
    private var info: XingInfoFrame?
    /// The ID3v2 tag in front of the Info frame (empty: none).
    private let id3: [UInt8]
    private var firstBitrateIndex = 0
    private var variableBitrate = false
    private var frames = 0
    private var bytes: Int64 = 0
    /// Where the first frame starts, in samples from time zero (the priming, negative).
    private var firstStart: Int64 = 0
    /// Where the input ends, in samples: the end of the first frame shorter than a whole one
    /// (libmp3lame's stamps overlap after it at rates below 32 kHz), else of the last frame.
    private var end: Int64 = 0
    private var endFound = false
    private let nominalBitrate: Int
    private var samplesPerFrame = 1152
    private var musicCRC: UInt16 = 0
    /// ffmpeg's seek-table sampling (mp3enc.c): the running size every `want` frames, 400 slots,
    /// halved (every second one dropped, `want` doubled) when full: fixed memory for any length.
    private var bag = [Int64](repeating: 0, count: 400)
    private var bagPosition = 0
    private var want = 1
    private var seen = 0

    /// - Parameter nominalBitrate: the stream's bitrate in bit/s, 0 for VBR (picks the Info
    ///   frame's own bitrate, as ffmpeg's muxer picks it).
    ///   - id3: an ID3v2 tag to write first, to any output.
    public init(path: String, nominalBitrate: Int = 0, id3: ID3v2Tag? = nil) throws {
        self.nominalBitrate = nominalBitrate
        self.id3 = id3?.bytes ?? []
        do { file = try OutputFile(path: path) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
        withInfo = !file.writesDirectly && file.isSeekable
    }

    /// Appends one frame. `start`: its first sample, counted from time zero (negative for the
    /// priming); `duration`: the samples it carries once decoded (0: a whole frame).
    public func write(_ frame: PacketBytes, start: Int64, duration: Int64) throws {
        guard let header = frame.withUnsafeBytes({ MP3FrameHeader($0) }) else {
            throw MP4MuxerError.invalidOption("packet \(frames + 1) (\(frame.count) bytes) does not start with an MPEG audio Layer III frame header")
        }
        do {
            if frames == 0 {
                if !id3.isEmpty { try file.write(id3) }
                firstStart = start
                firstBitrateIndex = header.bitrateIndex
                if withInfo {
                    guard let i = XingInfoFrame(firstFrame: header, nominalBitrate: nominalBitrate) else {
                        throw MP4MuxerError.invalidOption("no \(header.sampleRate) Hz frame is large enough for the Info frame")
                    }
                    info = i
                    let placeholder = i.bytes(nil)
                    bytes = Int64(placeholder.count)
                    try file.write(placeholder)
                }
            }
            if header.bitrateIndex != firstBitrateIndex { variableBitrate = true }
            musicCRC = frame.withUnsafeBytes { CRC16.update(musicCRC, $0) }
            try file.write(frame)
        } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
        frames += 1
        bytes += Int64(frame.count)
        let length = duration > 0 ? duration : Int64(header.samplesPerFrame)
        if !endFound {
            end = start + length
            endFound = length < header.samplesPerFrame
        }
        addToSeekTable()
        samplesPerFrame = header.samplesPerFrame
    }

    private func addToSeekTable() {
        seen += 1
        guard seen == want else { return }
        bag[bagPosition] = bytes
        bagPosition += 1
        if bagPosition == bag.count {
            for i in stride(from: 1, to: bag.count, by: 2) { bag[i >> 1] = bag[i] }
            want *= 2
            bagPosition = bag.count / 2
        }
        seen = 0
    }

    /// Patches the Info frame and completes the file. The LAME tag's delay is the priming (the
    /// samples before time zero) less the decoder's own 529; its padding, what the frames hold
    /// beyond the input's end.
    public func finish() throws {
        do {
            if let info {
                let priming = max(0, -firstStart)
                let delay = max(0, priming - 529)
                let padding = Int64(frames * samplesPerFrame) - (end - max(0, firstStart)) - delay
                var toc = [UInt8](repeating: 0, count: 100)
                if bagPosition > 0 {
                    for i in 1..<100 { toc[i] = UInt8(min(255, 256 * bag[i * bagPosition / 100] / bytes)) }
                }
                let counts = XingInfoFrame.Counts(frames: frames, bytes: bytes, toc: toc, delay: Int(delay),
                                                  padding: Int(max(0, padding)), musicCRC: musicCRC,
                                                  variableBitrate: variableBitrate)
                try file.patch(info.bytes(counts), at: UInt64(id3.count))
            }
            try file.closeFile()
        } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }
}
