import MediaGraphCodecs
import MediaGraphCore

/// `imagesrc`: a still image (PNG, JPEG, WebP, BMP, TIFF … — anything libavformat's image
/// demuxers open and libavcodec decodes) as a video: one picture repeated at `rate`, for
/// `duration` or until the graph stops it.
///
/// - The header is read when the node is created (so `validate` reports a file that is not an
///   image); the picture is decoded once, when the run starts, through the same `Demuxer` and
///   `VideoDecoder` as `filesrc`. An animated file gives its first picture.
/// - Output is rgba by default whatever the file holds (alpha kept: a PNG's or WebP's, 255 for
///   JPEG), converted by the decoder's libswscale step; `format` picks another 8-bit layout.
/// - Every frame is the same pixel memory: each is a new `SampleBuffer` (its own pts) around the
///   one decoded picture, which the source marks as held (`retainForeignReference`), so a
///   consumer that writes gets a copy and the picture stays intact for the next frame.
public final class ImageSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "imagesrc",
        doc: "A still image (PNG, JPEG, WebP, … decoded by libavcodec) repeated as video at 'rate', for 'duration' or until the graph ends it; rgba with the image's alpha by default (Docs/inputs.md).",
        category: .source,
        outputs: [PortSpec("out", .video(PixelFormat.eightBit), doc: "raw video: the picture, once per frame")],
        params: ParamSpec.list(pathParam, rateParam, durationParam, formatParam))
    static let pathParam = Param<String>.requiredPath("path", role: .input, doc: "the image file")
    static let rateParam = Param<Rational>.rational("rate", default: Rational(25, 1), doc: "frame rate")
    static let durationParam = Param<TimeValue?>.time(
        "duration", doc: "how long (seconds, or \"frame:N\"); unset: until the graph ends it (end: shortest on the mp4 sink or a node that combines inputs, or Ctrl-C)")
    static let formatParam = Param<PixelFormat>("format", choices: PixelFormat.eightBit, default: .rgba,
                                                doc: "pixel format of the frames (rgba keeps the alpha)")

    let path: String
    let format: VideoFormat
    let frames: Int?
    let stream: StreamInfo
    var demuxer: Demuxer?
    /// The decoded picture and the hold that keeps writers off its memory.
    var picture: SampleBuffer?
    var hold: UnsafeMutableRawPointer?
    var index = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        path = p[Self.pathParam]
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path, options: DemuxerOptions(probeSize: 32 << 20, analyzeDuration: 0), stop: setup.stop)
        } catch let e as DemuxError {
            throw NodeFailure(e.message)
        }
        guard let video = demuxer.streams.first(where: { $0.kind == .video }) else {
            throw NodeFailure("'\(path)' (\(demuxer.container.formatName)) holds no picture")
        }
        if video.width <= 0 || video.height <= 0 {
            // libavformat learns an image's size by decoding it
            if let problem = AnimatedWebP.problem(path) ?? DeclaredPictureSize.problem(path) { throw NodeFailure(problem) }
            throw NodeFailure("'\(path)': the \(video.codec) image's size cannot be read: the file is truncated or damaged")
        }
        if let problem = MediaLimits.frameSizeProblem(width: video.width, height: video.height) {
            throw NodeFailure("'\(path)': the image's \(problem)")
        }
        let rate = p[Self.rateParam]
        guard rate.num > 0, rate.den > 0 else { throw NodeFailure("param 'rate': must be more than 0, found \(rate)") }
        let pf = p[Self.formatParam]
        if pf.chromaShift.x > 0 && video.width % 2 != 0 || pf.chromaShift.y > 0 && video.height % 2 != 0 {
            throw NodeFailure("param 'format': \(pf) needs even dimensions, but '\(path)' is \(video.width)x\(video.height); use rgba or bgra")
        }
        // colour tags stay with YUV output (a JPEG's full range); RGB is full range by definition
        format = VideoFormat(pixelFormat: pf, width: video.width, height: video.height, frameRate: rate,
                             range: pf.isRGB ? nil : video.range == .full ? .full : .limited,
                             matrix: pf.isRGB ? .unspecified : video.matrix)
        if let d = p[Self.durationParam] {
            guard let seconds = d.seconds(frameRate: rate), seconds.num > 0 else {
                throw NodeFailure("param 'duration': must be more than 0, found \(d)")
            }
            // frames = ceil(seconds × rate), computed in Double: durations are below 10^6 s
            let n = (Double(seconds.num) / Double(seconds.den) * rate.doubleValue - 1e-9).rounded(.up)
            guard n <= 100_000_000 else { throw NodeFailure("param 'duration': \(d) is more than 100000000 frames at \(rate)") }
            frames = max(1, Int(n))
        } else {
            frames = nil
        }
        stream = video
        self.demuxer = demuxer
    }

    deinit {
        if let hold { FrameMemory.releaseForeignReference(hold) }
    }

    public var expectedCount: Int? { frames }
    public var endlessBecause: String? { frames == nil ? "has no 'duration'" : nil }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    public func produce(output: NodeOutput) throws -> Bool {
        if let frames, index >= frames { return false }
        if picture == nil { try decode() }
        guard let picture, case .video(let memory) = picture.payload else { return false }
        let metadata = BufferMetadata(format: .video(format), pts: Int64(index), dts: Int64(index), duration: 1,
                                      timeBase: format.timeBase, flags: .keyFrame)
        index += 1
        try output.send(SampleBuffer(metadata: metadata, payload: .video(memory)))
        return true
    }

    /// Reads the picture's packets and decodes the first picture into `format`.
    func decode() throws {
        guard let demuxer else { return }
        defer { self.demuxer = nil }   // the file is closed once the picture is decoded
        demuxer.select([stream.index])
        let encoded = EncodedVideoFormat(codec: stream.codec, raw: stream.videoFormat, timeBase: stream.timeBase, extradata: stream.extradata)
        let decoder: VideoDecoder
        do {
            decoder = try VideoDecoder(input: encoded, output: format, threads: 1)
        } catch {
            throw NodeFailure("'\(path)': cannot decode \(stream.codec) images: \(error)")
        }
        var decoded: SampleBuffer?
        do {
            var packets = 0
            while decoded == nil, packets < 64, let packet = try demuxer.read() {
                packets += 1
                try packet.bytes.withUnsafeBytes {
                    try decoder.send(bytes: $0, pts: 0, dts: 0, duration: 1, keyFrame: true, palette: packet.palette)
                }
                decoded = try decoder.receive()
            }
            if decoded == nil {
                try decoder.sendEndOfStream()
                decoded = try decoder.receive()
            }
        } catch let e as DemuxError {
            throw NodeFailure("'\(path)': reading the image failed: \(e.message)")
        } catch {
            throw NodeFailure("'\(path)': the \(stream.codec) image does not decode: \(error)")
        }
        guard let decoded, case .video(let memory) = decoded.payload else {
            throw NodeFailure("'\(path)': the \(stream.codec) image does not decode: no picture in the file")
        }
        // held for the whole run: every frame shares this memory, so writers must copy
        hold = memory.retainForeignReference()
        picture = decoded
    }
}
