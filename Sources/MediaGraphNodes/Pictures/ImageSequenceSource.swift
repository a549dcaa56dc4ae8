import MediaGraphCodecs
import MediaGraphCore

/// `imageseq`: reads numbered picture files (`frame-%05d.png`) or a glob (`shots/*.jpg`) as
/// video at a fixed `rate`. The first file decides codec, size and pixel format (libavformat
/// probes it); each file is then read whole (as ffmpeg's image2 demuxer does: one file, one
/// packet) and decoded by libavcodec, so any still format ffmpeg reads works (PNG, JPEG, WebP,
/// BMP, TIFF …). A numbered sequence ends at the first missing number; a file of another size,
/// a file that does not decode or cannot be read stops the run with its name.
public final class ImageSequenceSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "imageseq",
        doc: "Reads a numbered picture sequence (frame-%05d.png) or a glob (shots/*.jpg) as video at a fixed rate.",
        category: .source,
        outputs: [PortSpec("out", .video(PixelFormat.allCases), doc: "raw video in the first picture's format (8-bit RGB pictures as rgba)")],
        params: ParamSpec.list(pathParam, rateParam, startNumberParam, framesParam))
    static let pathParam = Param<String>.requiredPath("path", role: .input, doc: "numbered pattern (%d, %05d) or glob (*, ?, [ ]), relative to the graph file")
    static let rateParam = Param<Rational>.rational("rate", default: Rational(25, 1), doc: "frame rate the pictures are shown at")
    static let startNumberParam = Param<Int?>("start-number", 0...1_000_000_000, doc: "number of the first file (default: the first of 0–4 that exists, as ffmpeg)")
    static let framesParam = Param<Int>("frames", 0...100_000_000, default: 0, doc: "read at most this many pictures (0: all)")
    /// A picture file larger than this is refused (a 16384x16384 RGBA PNG stored is 1 GiB; real
    /// pictures are far smaller).
    static let maxFileBytes = 512 << 20

    let files: ImageSequenceFiles.Kind
    let format: VideoFormat
    let encoded: EncodedVideoFormat
    let limit: Int
    let stop: StopFlag
    var decoder: VideoDecoder?
    var index = 0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let rate = p[Self.rateParam]
        guard rate.num > 0, rate.den > 0 else { throw NodeFailure("param 'rate': expected a positive rate, found \(rate)") }
        files = try ImageSequenceFiles.open(p[Self.pathParam], startNumber: p[Self.startNumberParam])
        limit = p[Self.framesParam]
        stop = setup.stop
        let first = Self.fileName(files, 0) ?? ""
        let info: StreamInfo
        do {
            let demuxer = try Demuxer(path: first)
            guard let video = demuxer.streams.first(where: { $0.kind == .video }) else {
                throw NodeFailure("'\(first)' holds no picture")
            }
            guard video.width > 0, video.height > 0 else {
                if let problem = AnimatedWebP.problem(first) ?? DeclaredPictureSize.problem(first) { throw NodeFailure("cannot read the first picture: \(problem)") }
                throw NodeFailure("cannot read the first picture '\(first)': no picture size found in it (damaged, or not a picture)")
            }
            info = video
        } catch let e as NodeFailure {
            throw e
        } catch {
            throw NodeFailure("cannot read the first picture '\(first)': \(error)")
        }
        var raw = info.videoFormat
        raw.frameRate = rate
        raw.timeBase = rate.inverse ?? Rational(1, 25)
        format = raw
        encoded = EncodedVideoFormat(codec: info.codec, raw: raw, timeBase: rate.inverse ?? Rational(1, 25))
    }

    static func fileName(_ files: ImageSequenceFiles.Kind, _ i: Int) -> String? {
        switch files {
        case .glob(let names): return i < names.count ? names[i] : nil
        case .numbered(let pattern, let first): return pattern.name(number: first + i, seconds: 0)
        }
    }

    public var expectedCount: Int? {
        if case .glob(let names) = files { return limit > 0 ? Swift.min(limit, names.count) : names.count }
        return limit > 0 ? limit : nil
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    public func start() throws {
        // one thread: a picture comes out for each packet at once (no frame-thread delay)
        decoder = try VideoDecoder(input: encoded, output: format, threads: 1)
    }

    public func produce(output: NodeOutput) throws -> Bool {
        guard let decoder, !stop.isSet, limit == 0 || index < limit, let name = Self.fileName(files, index) else { return false }
        if case .numbered = files, !ImageSequenceFiles.exists(name) { return false }
        let bytes: [UInt8]
        do {
            bytes = try SmallFileReader.read(name, limit: Self.maxFileBytes)
        } catch {
            let why: String
            switch error {
            case .unreadable(let reason): why = reason
            case .isDirectory: why = "it is a directory"
            case .tooLarge(let limit): why = "larger than \(limit >> 20) MiB"
            case .notRegularFile: why = "not a regular file"
            }
            throw NodeFailure("cannot read picture '\(name)': \(why)")
        }
        do {
            try bytes.withUnsafeBytes { try decoder.send(bytes: $0, pts: Int64(index), dts: Int64(index), duration: 1, keyFrame: true) }
            guard let frame = try decoder.receive() else {
                throw NodeFailure("'\(name)' holds no complete picture")
            }
            if let pic = decoder.lastPicture, pic.width != format.width || pic.height != format.height {
                throw NodeFailure("picture '\(name)' is \(pic.width)x\(pic.height), the sequence's first picture \(format.width)x\(format.height): every picture must have the first one's size")
            }
            index += 1
            try output.send(frame)
        } catch let e as NodeFailure {
            throw e
        } catch {
            throw NodeFailure("cannot decode picture '\(name)': \(error)")
        }
        return true
    }
}
