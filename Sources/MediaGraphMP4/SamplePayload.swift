import MediaGraphCore

/// The bytes of a sample as MP4 stores them. H.264/HEVC: Annex B becomes 4-byte length-prefixed
/// NAL units without parameter sets and delimiters (they live in avcC/hvcC); 4-byte
/// length-prefixed packets (a stream copied from MP4 or Matroska) pass through untouched, as
/// ffmpeg's `-c copy` passes them; 1-, 2- and 3-byte prefixes are widened to 4 (the avcC/hvcC we
/// write says 4). Everything else is stored as it is.
enum SamplePayload {
    /// Appends the converted form of an H.264/HEVC sample to `out` and returns true; returns
    /// false (appending nothing) when the data is stored as it is. Throws a reason when
    /// length-prefixed data does not split into NAL units.
    static func appendConverted(_ data: UnsafeRawBufferPointer, codec: Codec, framing: NALFraming, to out: inout [UInt8]) throws -> Bool {
        guard codec == .h264 || codec == .hevc else { return false }
        switch framing {
        case .lengthPrefixed(4):
            return false
        case .lengthPrefixed(let n):
            try widen(data, prefix: n, to: &out)
            return true
        case .annexB:
            break
        }
        guard NALUnits.looksLikeAnnexB(data) else { return false }
        NALUnits.forEachAnnexB(data) { r in
            if NALUnits.isOutOfBand(data[r.lowerBound], codec: codec) { return }
            appendLength(UInt32(r.count), to: &out)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[r]))
        }
        return true
    }

    /// Rewrites `prefix`-byte NAL lengths as 4-byte ones, every NAL unit kept.
    static func widen(_ data: UnsafeRawBufferPointer, prefix: Int, to out: inout [UInt8]) throws {
        var i = 0
        while i < data.count {
            guard i + prefix <= data.count else {
                throw PayloadError(reason: "\(data.count - i) bytes left at byte \(i), too few for a \(prefix)-byte NAL unit length")
            }
            var n = 0
            for k in 0..<prefix { n = n << 8 | Int(data[i + k]) }
            i += prefix
            guard n <= data.count - i else {
                throw PayloadError(reason: "NAL unit length \(n) at byte \(i - prefix) runs past the sample's end (\(data.count - i) bytes left)")
            }
            appendLength(UInt32(n), to: &out)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[i..<(i + n)]))
            i += n
        }
    }

    @inline(__always)
    static func appendLength(_ n: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(n >> 24)); out.append(UInt8((n >> 16) & 0xFF))
        out.append(UInt8((n >> 8) & 0xFF)); out.append(UInt8(n & 0xFF))
    }

    struct PayloadError: Error { var reason: String }
}

extension MP4Muxer {
    /// How a track's H.264/HEVC samples delimit NAL units (from its codec configuration).
    func framing(of t: Track) -> NALFraming {
        switch t.configuration {
        case .h264(let c)?: return c.framing
        case .hevc(let c)?: return c.framing
        default: return .annexB
        }
    }

    /// The converted bytes of a sample into `out`, or false when it is stored as it is.
    private func convert(_ s: MP4Sample, _ t: Track, to out: inout [UInt8], sampleNumber: Int) throws -> Bool {
        let before = out.count
        let converted: Bool
        do {
            converted = try s.data.withUnsafeBytes {
                try SamplePayload.appendConverted($0, codec: t.description.codec, framing: framing(of: t), to: &out)
            }
        } catch let e as SamplePayload.PayloadError {
            throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber, reason: e.reason)
        }
        if converted && out.count == before {
            throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber,
                                              reason: "holds only parameter sets or delimiters, no picture")
        }
        return converted
    }

    /// Appends a sample's MP4 bytes to `out`; returns their count.
    func appendPayload(_ s: MP4Sample, _ t: Track, to out: inout [UInt8], sampleNumber: Int) throws -> Int {
        let before = out.count
        if try !convert(s, t, to: &out, sampleNumber: sampleNumber) {
            s.data.withUnsafeBytes { out.append(contentsOf: $0) }
        }
        return out.count - before
    }

    /// Writes a sample's MP4 bytes to the file (unconverted data straight from the sample).
    func writePayload(_ s: MP4Sample, _ t: Track, to file: OutputFile, sampleNumber: Int) throws -> Int {
        scratch.removeAll(keepingCapacity: true)
        if try convert(s, t, to: &scratch, sampleNumber: sampleNumber) {
            try file.write(scratch)
            return scratch.count
        }
        try file.write(s.data)
        return s.data.count
    }
}
