import MediaGraphCore

// What other container writers (Matroska) share with MP4: the avcC/hvcC records MP4 writes in
// its sample entries, and the conversion of H.264/HEVC packets to 4-byte length-prefixed NAL
// units that those records announce.

extension CodecConfigurationRecords {
    /// The AVCDecoderConfigurationRecord of `c` as the avcC box holds it (4-byte NAL lengths):
    /// also Matroska's CodecPrivate for V_MPEG4/ISO/AVC.
    public static func avcCRecord(_ c: H264Configuration) -> [UInt8] {
        var w = ByteWriter()
        SampleEntry.avcC(&w, c)
        return w.bytes
    }

    /// The HEVCDecoderConfigurationRecord of `c` as the hvcC box holds it (4-byte NAL lengths):
    /// also Matroska's CodecPrivate for V_MPEGH/ISO/HEVC.
    public static func hvcCRecord(_ c: HEVCConfiguration) -> [UInt8] {
        var w = ByteWriter()
        SampleEntry.hvcC(&w, c)
        return w.bytes
    }
}

/// H.264/HEVC packets as avcC/hvcC-described files store them: 4-byte length-prefixed NAL units,
/// parameter sets and delimiters left out of Annex B input (they live in the record).
public enum LengthPrefixedNALUnits {
    /// A packet whose NAL units do not split as its framing says.
    public struct Malformed: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// Appends the converted packet to `out` and returns true; returns false, appending nothing,
    /// when the packet is stored as it is (4-byte prefixes already, or not H.264/HEVC).
    public static func appendConverted(_ data: UnsafeRawBufferPointer, codec: Codec, framing: NALFraming,
                                       to out: inout [UInt8]) throws(Malformed) -> Bool {
        do {
            return try SamplePayload.appendConverted(data, codec: codec, framing: framing, to: &out)
        } catch let e as SamplePayload.PayloadError {
            throw Malformed(reason: e.reason)
        } catch {
            throw Malformed(reason: "\(error)")
        }
    }
}
