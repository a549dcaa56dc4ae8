import MediaGraphCore
import MediaGraphMP4

/// `mp3sink`: MP3 frames in an .mp3 file, led by a Xing/Info frame with the LAME tag (as
/// ffmpeg's `-f mp3` writes it, without the ID3v2 tag), so players show the exact duration and
/// gapless decoders trim the encoder delay and the last frame's padding.
public final class MP3Sink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "mp3sink", doc: "Writes MP3 packets to an .mp3 file, after a Xing/Info frame with frame and byte counts, a seek table and the LAME tag's encoder delay and padding (to standard output: the frames alone).",
        category: .sink,
        inputs: [PortSpec("in", .encodedAudio([.mp3]))],
        params: [elementaryOutputPath.spec])

    let path: String
    var writer: MP3Writer?
    var sampleRate: Int64 = 0
    var nominalBitrate = 0

    public init(setup: NodeSetup) throws { path = setup.params[elementaryOutputPath] }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard case .encodedAudio(let f) = inputs[0].format else { throw NodeFailure("expected MP3 packets, found \(inputs[0].format)") }
        sampleRate = Int64(f.sampleRate)
        nominalBitrate = Int(f.coding.bitRate)
        return []
    }
    public func start() throws { try OutputDirectory.prepare(for: path) }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if writer == nil { writer = try MP3Writer(path: path, nominalBitrate: nominalBitrate) }
        // in samples from time zero: the LAME tag's delay and padding are counted so
        let start = buffer.pts == SampleBuffer.noTime ? 0 : MediaTime.rescale(buffer.pts, timeBase: buffer.timeBase, to: sampleRate) ?? 0
        // what plays: a copied file's last packet keeps its whole duration and marks the padding
        let playing = buffer.duration - buffer.metadata.discardPadding
        let duration = playing > 0 ? MediaTime.rescale(playing, timeBase: buffer.timeBase, to: sampleRate) ?? 0 : 0
        try writer!.write(buffer.packetBytes, start: start, duration: duration)
    }
    public func finish(output: NodeOutput) throws {
        guard let writer else { throw NodeFailure("no MP3 packets arrived; nothing to write") }
        try writer.finish()
    }
    /// Dropping the writer discards its unfinished file.
    public func abort() { writer = nil }
}
