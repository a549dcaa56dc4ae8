import MediaGraphCore

/// `wavsrc`: reads a WAV file (or stdin): PCM 8/16/24/32-bit and 32/64-bit float, 1 to 8
/// channels, converted to float planar buffers (`WAVReader` does the reading).
public final class WAVSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "wavsrc", doc: "Reads WAV audio (PCM 8/16/24/32-bit or float, mono to 8 channels) from a file or standard input.",
        category: .source,
        outputs: [PortSpec("out", .audio([.f32planar]), doc: "raw audio, float planar")],
        params: [.path("path", role: .input, required: true, doc: "input file, or \"-\" for standard input"),
                 .int("chunk", 1...65536, default: 1024, doc: "samples per buffer")])

    let reader: WAVReader?
    let format: AudioFormat
    let chunk: Int
    var position: Int64 = 0

    public init(setup: NodeSetup) throws {
        let path = setup.params.path("path")!
        chunk = setup.params.int("chunk", default: 1024)
        if path == "-" && setup.dryRun {
            reader = nil
            format = AudioFormat(sampleFormat: .f32planar, sampleRate: 48000, channels: 2)
            return
        }
        let f = try InputFile(path: path)
        f.stop = setup.stop
        let reader = try WAVReader(file: f)
        self.reader = reader
        format = reader.format
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.audio(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let reader, let (bytes, n) = try reader.read(maxFrames: chunk) else { return false }
        let b = SampleBuffer(bytes: bytes, format: .audio(format), pts: position, duration: Int64(n),
                             timeBase: Rational(1, Int64(format.sampleRate)), flags: .keyFrame, sampleCount: n)
        position += Int64(n)
        try output.send(consume b)
        return true
    }
}
