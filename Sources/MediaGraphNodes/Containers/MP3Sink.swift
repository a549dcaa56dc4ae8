import MediaGraphCore
import MediaGraphMP4

/// `mp3sink`: MP3 frames in an .mp3 file, led by an ID3v2.4 tag when there are tags or chapters
/// (the input file's, changed by `metadata`) and a Xing/Info frame with the LAME tag, as ffmpeg's
/// `-f mp3` writes them, so players show the tags and the exact duration and gapless decoders
/// trim the encoder delay and the last frame's padding.
public final class MP3Sink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "mp3sink", doc: "Writes MP3 packets to an .mp3 file, after an ID3v2.4 tag with the movie tags and chapters (the input file's, changed by 'metadata'; none without any) and a Xing/Info frame with frame and byte counts, a seek table and the LAME tag's encoder delay and padding (to standard output: the frames alone).",
        category: .sink,
        inputs: [PortSpec("in", .encodedAudio([.mp3]))],
        params: [elementaryOutputPath.spec, metadataParam.spec, ChaptersParam.param.spec])
    static let metadataParam = MovieMetadata.param(keys: "any name except encoder, creation_time and id3v2_priv.*; title, artist, album, album_artist, composer, genre, copyright, date, track, disc, language, publisher, performer, grouping, lyrics, compilation get their ID3v2 frames (TIT2, TPE1, …), others a TXXX frame")

    let path: String
    /// Tags the `metadata` param sets ("" to remove), in its order.
    let givenTags: [(name: String, value: String)]
    var id3: ID3v2Tag?
    /// Chapters the `chapters` param gives (nil: the input file's).
    let givenChapters: [Chapter]?
    var writer: MP3Writer?
    var sampleRate: Int64 = 0
    var nominalBitrate = 0

    public init(setup: NodeSetup) throws {
        path = setup.params[elementaryOutputPath]
        givenTags = try MovieMetadata.given(setup.params[Self.metadataParam], check: ID3v2Tag.check)
        givenChapters = try ChaptersParam.chapters(setup.params[ChaptersParam.param])
    }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard case .encodedAudio(let f) = inputs[0].format else { throw NodeFailure("expected MP3 packets, found \(inputs[0].format)") }
        sampleRate = Int64(f.sampleRate)
        nominalBitrate = Int(f.coding.bitRate)
        let formats = [inputs[0].format]
        id3 = ID3v2Tag(MovieMetadata.merged(copied: MovieMetadata.copiedTags(formats), given: givenTags),
                       chapters: givenChapters ?? MovieMetadata.copiedChapters(formats))
        return []
    }
    public func start() throws { try OutputDirectory.prepare(for: path) }
    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if writer == nil { writer = try MP3Writer(path: path, nominalBitrate: nominalBitrate, id3: id3) }
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
