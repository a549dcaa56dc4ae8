import MediaGraphCodecs
import MediaGraphCore

/// `decode`: encoded video or audio to raw frames through libavcodec, on a thread of its own.
/// The graph inserts it wherever encoded packets meet an input that takes raw media (one per
/// stream however many consumers), so users rarely name it; by hand it sets the thread count or
/// the error policy.
///
/// Frames come out in the format the stream declared (`EncodedVideoFormat.raw`: a 10-bit
/// stream as 10-bit; a visible `convert` follows where an 8-bit node needs it), decoded straight
/// into pooled frames; pictures and audio before time zero (a trim's lead-in, codec priming) are
/// dropped, audio to the sample.
public final class DecodeNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "decode",
        doc: "Decodes encoded video or audio with libavcodec (the graph inserts it where packets meet an input that takes raw media).",
        category: .converter,
        inputs: [PortSpec("in", .any, doc: "encoded video or audio")],
        outputs: [PortSpec("out", .any, doc: "raw video in the stream's declared format, or raw audio")],
        params: ParamSpec.list(errorsParam, threadsParam),
        threading: .ownThread)
    static let errorsParam = Param<String>("errors", oneOf: ["stop", "skip"], default: "stop",
                                           doc: "a packet that cannot be decoded stops the run (naming its time), or is skipped and counted in a warning; a trim's lead-in packet before the first frame (a seek that landed inside a frame) is dropped with a note either way")
    static let threadsParam = Param<Int>("threads", 0...64, default: 0, doc: "decoding threads (frame and slice threading; 0 = every core)")

    /// Where encoded packets meet an input that takes raw video or raw audio, decode them once per
    /// stream; the decoder takes the producer's `errors` policy when it has one (a file source).
    public static let adapter = FormatAdapter(nodeType: "decode", label: "decode", sharedPerOutput: true) { format, caps, producer in
        switch (format, caps) {
        case (.encodedVideo, .video), (.encodedAudio, .audio):
            var params: [String: JSONValue] = [:]
            if let policy = producer.string("errors"), policy == "stop" || policy == "skip" { params["errors"] = .string(policy, nil) }
            return params
        default:
            return nil
        }
    }

    let id: String
    let skipErrors: Bool
    let threads: Int
    var video: VideoDecoder?
    var audio: AudioDecoder?
    var skipped = 0
    var firstSkipped: String?
    /// Packets of a seek's lead-in that did not decode, dropped whatever `errors` says.
    var leadInDropped = 0
    var firstLeadInDropped: String?
    /// Decoded pictures waiting for libavcodec to let go of them (see `sendReady`).
    var held: [SampleBuffer] = []
    /// At most this many pictures wait.
    static let holdLimit = 3

    public init(setup: NodeSetup) throws {
        id = setup.id
        skipErrors = setup.params[Self.errorsParam] == "skip"
        threads = setup.params[Self.threadsParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        switch inputs[0].format {
        case .encodedVideo(let e):
            let d = try VideoDecoder(input: e, threads: threads)
            video = d
            return [.video(d.output)]
        case .encodedAudio(let e):
            let d = try AudioDecoder(input: e, threads: threads)
            audio = d
            return [.audio(d.output)]
        case let other:
            throw NodeFailure("expected encoded video or audio, found \(other)")
        }
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        do {
            if let video { try video.send(buffer) } else { try audio?.send(buffer) }
        } catch let e as CodecError {
            try undecodable(e)
            return
        }
        try drain(output)
    }

    public func finish(output: NodeOutput) throws {
        do {
            if let video { try video.sendEndOfStream() } else { try audio?.sendEndOfStream() }
        } catch let e as CodecError {
            try undecodable(e)
        }
        try drain(output)
        try sendReady(output, all: true)
    }

    public func abort() { held.removeAll() }

    /// Sends every frame the decoder has ready.
    private func drain(_ output: NodeOutput) throws {
        while true {
            let frame: SampleBuffer?
            do {
                frame = try video?.receive() ?? audio?.receive()
            } catch let e as CodecError {
                try undecodable(e)
                continue
            }
            guard let frame else { return try sendReady(output, all: false) }
            if video != nil {
                held.append(frame)
                try sendReady(output, all: false)
            } else {
                try output.send(consume frame)
            }
        }
    }

    /// Right after decoding, libavcodec still holds a picture (its reference, frame threads), so a
    /// filter after the decoder would have to write a copy. Pictures therefore wait, in order,
    /// until libavcodec has let go (the node holds the only reference: the filter writes in
    /// place) or `holdLimit` wait behind them.
    private func sendReady(_ output: NodeOutput, all: Bool) throws {
        while !held.isEmpty && (all || held.count > Self.holdLimit || SampleBuffer.isUnique(&held[0])) {
            let frame = held.removeFirst()
            try output.send(consume frame)
        }
    }

    /// The error policy: stop with the decoder's message, or count and go on.
    private func undecodable(_ error: CodecError) throws {
        if error.inSeekLeadIn {
            // the seek landed inside a frame before the trim's start: not damage in the file
            leadInDropped += 1
            if firstLeadInDropped == nil { firstLeadInDropped = error.message }
            return
        }
        guard skipErrors else {
            throw NodeFailure("\(error.message) (\(error.component); \"errors\": \"skip\" skips undecodable packets)")
        }
        skipped += 1
        if firstSkipped == nil { firstSkipped = error.message }
    }

    public var runWarnings: [String] {
        var w: [String] = []
        if skipped > 0, let first = firstSkipped {
            w.append("skipped \(skipped) undecodable packet\(skipped == 1 ? "" : "s"); the first: \(first)")
        }
        if let v = video, let change = v.formatChange {
            w.append("from \(Self.seconds(change.pts, v.output.timeBase)) the pictures are \(change.description), not the declared \(v.output.pixelFormat) \(v.output.width)x\(v.output.height): \(v.statistics.convertedFrames) frames converted with libswscale")
        }
        if let a = audio, let change = a.formatChange {
            w.append("from \(Self.seconds(change.pts, a.timeBase)) the audio is \(change.description), not the declared \(a.output.sampleFormat) \(a.output.sampleRate)Hz \(a.output.channels)ch: converted with libswresample")
        }
        return w
    }

    public var runNotes: [String] {
        guard leadInDropped > 0, let first = firstLeadInDropped else { return [] }
        return ["dropped \(leadInDropped) packet\(leadInDropped == 1 ? "" : "s") of the trim's lead-in that did not decode (the seek landed inside a frame, before 'start'); the first: \(first)"]
    }

    static func seconds(_ pts: Int64, _ tb: Rational) -> String {
        let s = (Double(pts) * tb.doubleValue * 1000).rounded() / 1000
        return "\(s) s"
    }
}
