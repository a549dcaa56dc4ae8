import MediaGraphCore

/// The bytes of a sample as MP4 stores them: H.264/HEVC Annex B becomes 4-byte length-prefixed
/// NAL units without parameter sets and delimiters (they live in avcC/hvcC).
enum SamplePayload {
    /// Appends the converted form of an Annex B H.264/HEVC sample to `out` and returns true;
    /// returns false (appending nothing) when the data is stored as it is.
    static func appendConverted(_ data: [UInt8], codec: Codec, to out: inout [UInt8]) -> Bool {
        guard codec == .h264 || codec == .hevc else { return false }
        return data.withUnsafeBytes { raw -> Bool in
            guard NALUnits.looksLikeAnnexB(raw) else { return false }
            NALUnits.forEachAnnexB(raw) { r in
                if NALUnits.isOutOfBand(raw[r.lowerBound], codec: codec) { return }
                let n = UInt32(r.count)
                out.append(UInt8(n >> 24)); out.append(UInt8((n >> 16) & 0xFF))
                out.append(UInt8((n >> 8) & 0xFF)); out.append(UInt8(n & 0xFF))
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[r]))
            }
            return true
        }
    }
}

extension MP4Muxer {
    /// Appends a sample's MP4 bytes to `out`; returns their count.
    func appendPayload(_ s: MP4Sample, _ t: Track, to out: inout [UInt8], sampleNumber: Int) throws -> Int {
        let before = out.count
        if SamplePayload.appendConverted(s.data, codec: t.description.codec, to: &out) {
            if out.count == before {
                throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber,
                                                  reason: "holds only parameter sets or delimiters, no picture")
            }
        } else {
            out.append(contentsOf: s.data)
        }
        return out.count - before
    }

    /// Writes a sample's MP4 bytes to the file (unconverted data straight from the sample).
    func writePayload(_ s: MP4Sample, _ t: Track, to file: OutputFile, sampleNumber: Int) throws -> Int {
        scratch.removeAll(keepingCapacity: true)
        if SamplePayload.appendConverted(s.data, codec: t.description.codec, to: &scratch) {
            if scratch.isEmpty {
                throw MP4MuxerError.invalidSample(track: t.description.name, sample: sampleNumber,
                                                  reason: "holds only parameter sets or delimiters, no picture")
            }
            try file.write(scratch)
            return scratch.count
        }
        try file.write(s.data)
        return s.data.count
    }
}
