import MediaGraphCore

/// Writes H.264/HEVC access units as an Annex B elementary stream: 4-byte start codes, the
/// parameter sets in front of every key frame (so playback can start at any of them).
/// Samples may be Annex B or 4-byte length-prefixed.
public final class AnnexBWriter {
    private let file: OutputFile
    private let codec: Codec
    private var parameterSets: [[UInt8]] = []
    private var out: [UInt8] = []

    public init(path: String, codec: Codec) throws {
        guard codec == .h264 || codec == .hevc else { throw MP4MuxerError.invalidOption("Annex B holds H.264 or HEVC, not \(codec)") }
        self.codec = codec
        do { file = try OutputFile(path: path) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }

    /// - Parameter configuration: the parameter sets to put before key frames (latest wins).
    public func write(_ data: [UInt8], isKeyFrame: Bool, configuration: CodecConfiguration? = nil) throws {
        switch configuration {
        case .h264(let c)?: parameterSets = c.sps + c.pps
        case .hevc(let c)?: parameterSets = c.vps + c.sps + c.pps
        default: break
        }
        out.removeAll(keepingCapacity: true)
        data.withUnsafeBytes { raw in
            let annexB = NALUnits.looksLikeAnnexB(raw)
            let ranges = annexB ? NALUnits.annexBRanges(raw) : (NALUnits.lengthPrefixedRanges(raw) ?? [])
            let hasSets = ranges.contains { r in
                codec == .h264 ? NALUnits.h264Type(raw[r.lowerBound]) == 7 : NALUnits.hevcType(raw[r.lowerBound]) == 33
            }
            if annexB && (hasSets || !isKeyFrame) {
                // already a complete Annex B access unit: keep its bytes (and start codes) as they are
                out.append(contentsOf: raw)
                return
            }
            var rest = ranges[...]
            // An access unit delimiter stays first.
            if let f = rest.first, (codec == .h264 ? NALUnits.h264Type(raw[f.lowerBound]) == 9 : NALUnits.hevcType(raw[f.lowerBound]) == 35) {
                out += [0, 0, 0, 1]
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[f]))
                rest = rest.dropFirst()
            }
            if isKeyFrame && !hasSets {
                for s in parameterSets { out += [0, 0, 0, 1]; out += s }
            }
            for r in rest {
                out += [0, 0, 0, 1]
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[r]))
            }
        }
        do { try file.write(out) } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }

    public func finish() throws {
        do { try file.closeFile() } catch let e as MP4IOError { throw MP4MuxerError.io(e) }
    }
}
