import MediaGraphCore

/// `wavsink`: writes a WAV file as `ffmpeg -i in -vn -f wav -bitexact out.wav` does: s16 by
/// default, or s32, f32 or u8; other sample formats (planar ones) are converted by an inserted
/// `resample`, as for `pcmsink`. The header is `WAVHeader`'s; its sizes are patched at the end,
/// except on a pipe, which keeps ffmpeg's 0xFFFFFFFF ("read to the end").
public final class WAVSink: RegisteredNode {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "wavsink",
            doc: "Writes a WAV file (ffmpeg -f wav -bitexact): s16, s32, f32 or u8, WAVE_FORMAT_EXTENSIBLE with the channel mask where ffmpeg uses it; at most 4 GiB.",
            category: .sink,
            inputs: [PortSpec("in", .audio(SampleFormat.allCases), doc: "raw audio (converted to 'format' where it differs)")],
            params: ParamSpec.list(pathParam, formatParam))
        // the sample format comes from the param: the graph converts to it, as ffmpeg's -c:a pcm_…
        info.inputShapeFor = { params, _, format in
            guard let a = format.audio, let want = WAVHeader.sampleFormats[params[formatParam]], a.sampleFormat != want else { return nil }
            return FormatShape(sampleFormat: want)
        }
        return info
    }()
    static let pathParam = Param<String>.requiredPath("path", role: .output, doc: "output file, or \"-\" for standard output")
    static let formatParam = Param<String>("format", oneOf: ["s16", "s32", "f32", "u8"], default: "s16",
                                           doc: "sample format: s16 (ffmpeg's pcm_s16le), s32, f32 (IEEE float) or u8")

    let path: String
    var format: AudioFormat!
    var file: OutputFile?
    var header: WAVHeader!
    var dataBytes: UInt64 = 0
    /// False on a pipe: asked once, not per buffer.
    var seekable = false

    public init(setup: NodeSetup) throws { path = setup.params[Self.pathParam] }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let a = inputs[0].format.audio, WAVHeader.sampleFormats.values.contains(a.sampleFormat) else {
            throw NodeFailure("expected raw audio in s16, s32, f32 or u8, found \(inputs[0].format)")
        }
        format = a
        return []
    }

    public func start() throws {
        let f = try OutputFile(path: path)
        file = f
        seekable = f.isSeekable
        header = WAVHeader(format: format, seekable: seekable)
        try f.write(header.bytes)
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try buffer.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return }
            let total = dataBytes + UInt64(raw.count)
            // a pipe has no sizes to outgrow; a file would get wrong ones
            if seekable, let overflow = header.overflow(dataBytes: total) { throw NodeFailure(overflow) }
            try file!.write(base, count: raw.count)
            dataBytes = total
        }
    }

    public func finish(output: NodeOutput) throws {
        guard let file else { return }
        if seekable {
            if dataBytes % 2 == 1 { try file.write([0]) }   // RIFF chunks are padded to even sizes
            for p in header.patches(dataBytes: dataBytes) { try file.patch(p.bytes, at: p.offset) }
        }
        try file.commit()
    }

    public func abort() { file?.discard() }
}
