import MediaGraphCore

/// Reads a WAV file (RIFF/WAVE): PCM 8/16/24/32-bit and 32/64-bit float, 1 to 8 channels, as
/// float planar samples. Chunk sizes come from the file, so nothing is allocated by them: unknown
/// chunks are skipped a piece at a time, sizes are checked against the file size, and sample
/// data is read in chunks of the caller's size.
public final class WAVReader {
    /// float planar, the file's rate and channel count, and its speakers when an extensible header names them.
    public let format: AudioFormat
    public let bitsPerSample: Int
    public let isFloat: Bool
    let file: InputFile
    /// Bytes of sample data left (nil: until end of file, as streamed WAV headers say).
    private var remaining: Int64?
    private var raw: [UInt8] = []
    /// A truncated last sample frame, reported by the call after the one that read it.
    private var pendingError: NodeFailure?

    /// Opens and reads the header of the file at `path` ("-" for standard input).
    public convenience init(path: String) throws {
        try self.init(file: InputFile(path: path))
    }

    /// Reads a WAV file held in memory; `name` stands for the file in error messages. (The same
    /// parser as for files: the entry point for fuzzing.)
    public convenience init(bytes: [UInt8], name: String = "memory") throws {
        try self.init(file: InputFile(bytes: bytes, name: name))
    }

    init(file f: InputFile) throws {
        file = f
        func read(_ n: Int, _ what: String) throws -> [UInt8] {
            var b = [UInt8](repeating: 0, count: n)
            let got = try b.withUnsafeMutableBufferPointer { try f.read(into: $0.baseAddress!, count: n) }
            if got < n { throw NodeFailure("\(f.displayName): truncated WAV header: \(what) at byte \(f.offset - Int64(got))") }
            return b
        }
        func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24 }
        func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        let riff = try read(12, "RIFF header")
        guard riff[0..<4].elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WAVE".utf8) else {
            throw NodeFailure("\(f.displayName) is not a WAV file: expected \"RIFF\" … \"WAVE\" at byte 0")
        }
        let fileSize = f.size
        var fmt: [UInt8]?
        var fmtAt: Int64 = 0
        while true {
            let at = f.offset
            let header = try read(8, "chunk header")
            let id = String(decoding: header[0..<4].map { (32...126).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            let size = Int64(u32(header, 4))
            if id == "fmt " {
                guard size >= 16 && size < 1024 else {
                    throw NodeFailure("\(f.displayName): byte \(at): fmt chunk size \(size) is not in 16…1023")
                }
                fmtAt = at + 8
                fmt = try read(Int(size), "fmt chunk")
                if size % 2 == 1 { _ = try read(1, "padding") }
            } else if id == "data" {
                if size == 0xFFFF_FFFF || size == 0 {
                    remaining = nil // streamed: the size was never filled in
                } else {
                    if let fileSize, size > fileSize - f.offset {
                        throw NodeFailure("\(f.displayName): byte \(at): data chunk size \(size) is beyond the end of the file (\(fileSize - f.offset) bytes follow its header); cut short while written? filesrc reads what is there, with \"errors\": \"skip\"")
                    }
                    remaining = size
                }
                break
            } else {
                // Skipped through the buffer: a 4 GiB size allocates nothing.
                let padded = size + size % 2
                let skipped = try f.skip(padded)
                if skipped < padded && !(skipped == size && padded == size + 1) {
                    throw NodeFailure("\(f.displayName): byte \(at): chunk '\(id)' of \(size) bytes is cut off by the end of the file after \(skipped)")
                }
            }
        }
        guard let fmt else { throw NodeFailure("\(f.displayName): no fmt chunk before the data chunk") }
        var tag = u16(fmt, 0)
        let channels = u16(fmt, 2)
        let rate = Int(u32(fmt, 4))
        let bits = u16(fmt, 14)
        // WAVE_FORMAT_EXTENSIBLE: the speakers' mask, then the sub-format GUID. As libavformat, a
        // mask naming other than `channels` speakers (0 among them) says nothing.
        var layout = ChannelLayout.unspecified
        if tag == 0xFFFE && fmt.count >= 24, u32(fmt, 20).nonzeroBitCount == channels { layout = ChannelLayout(mask: UInt64(u32(fmt, 20))) }
        if tag == 0xFFFE && fmt.count >= 26 { tag = u16(fmt, 24) }
        guard tag == 1 || tag == 3 else {
            throw NodeFailure("\(f.displayName): byte \(fmtAt): WAV format tag \(tag) is not supported; expected PCM (1) or IEEE float (3)")
        }
        guard (1...MediaLimits.maxAudioChannels).contains(channels) else {
            throw NodeFailure("\(f.displayName): byte \(fmtAt + 2): \(channels) channels; expected 1 to \(MediaLimits.maxAudioChannels)")
        }
        guard rate > 0 && rate <= MediaLimits.maxSampleRate else {
            throw NodeFailure("\(f.displayName): byte \(fmtAt + 4): sample rate \(rate) is not in 1…\(MediaLimits.maxSampleRate)")
        }
        let valid = tag == 3 ? [32, 64] : [8, 16, 24, 32]
        guard valid.contains(bits) else {
            throw NodeFailure("\(f.displayName): byte \(fmtAt + 14): \(bits)-bit \(tag == 3 ? "float" : "PCM") is not supported; expected \(valid.map(String.init).joined(separator: ", "))")
        }
        isFloat = tag == 3
        bitsPerSample = bits
        format = AudioFormat(sampleFormat: .f32planar, sampleRate: rate, channels: channels, channelLayout: layout)
    }

    /// Bytes of one sample frame (all channels): at most 8 × 8.
    var frameBytes: Int { format.channels * bitsPerSample / 8 }

    /// Reads up to `maxFrames` sample frames as float planar bytes (channel after channel,
    /// `count` samples each); nil at the end of the data. A truncated last sample frame is an
    /// error, thrown by the call after the one that returns the complete frames before it.
    public func read(maxFrames: Int) throws -> (bytes: [UInt8], count: Int)? {
        if let e = pendingError { pendingError = nil; throw e }
        let frameBytes = self.frameBytes
        var want = max(1, maxFrames) * frameBytes
        if let r = remaining { want = Int(min(Int64(want), r)) }
        if want == 0 { return nil }
        if raw.count < want { raw = [UInt8](repeating: 0, count: want) }
        let got = try raw.withUnsafeMutableBufferPointer { try file.read(into: $0.baseAddress!, count: want) }
        if let r = remaining { remaining = r - Int64(got) }
        if got % frameBytes != 0 {
            pendingError = NodeFailure("\(file.displayName): truncated sample frame at byte \(file.offset) (\(got % frameBytes) of \(frameBytes) bytes)")
        }
        let n = got / frameBytes
        if n == 0 {
            if let e = pendingError { pendingError = nil; throw e }
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: n * format.channels * 4)
        let channels = format.channels, bits = bitsPerSample, float = isFloat
        raw.withUnsafeBytes { src in
            bytes.withUnsafeMutableBytes { dst in
                let out = dst.baseAddress!.assumingMemoryBound(to: Float.self)
                let p = src.baseAddress!
                for i in 0..<n {
                    for c in 0..<channels {
                        let at = (i * channels + c) * bits / 8
                        let v: Float
                        switch (bits, float) {
                        case (8, false): v = (Float(p.load(fromByteOffset: at, as: UInt8.self)) - 128) / 128
                        case (16, false): v = Float(Int16(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int16.self))) / 32768
                        case (24, false):
                            let b0 = Int32(p.load(fromByteOffset: at, as: UInt8.self)), b1 = Int32(p.load(fromByteOffset: at + 1, as: UInt8.self))
                            let b2 = Int32(Int8(bitPattern: p.load(fromByteOffset: at + 2, as: UInt8.self)))
                            v = Float(b0 | b1 << 8 | b2 << 16) / 8_388_608
                        case (32, false): v = Float(Int32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int32.self))) / 2_147_483_648
                        case (32, true): v = p.loadUnaligned(fromByteOffset: at, as: Float.self)
                        default: v = Float(p.loadUnaligned(fromByteOffset: at, as: Double.self))
                        }
                        out[c * n + i] = v
                    }
                }
            }
        }
        return (bytes, n)
    }
}
