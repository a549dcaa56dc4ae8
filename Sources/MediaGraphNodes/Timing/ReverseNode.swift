import Foundation
import MediaGraphCore

/// `reverse`: plays a clip backwards, as ffmpeg's `reverse`. Every frame is held until the input
/// ends, then sent last first; output frame k takes input frame k's time and duration, so the
/// timeline is the input's and only the pictures run the other way.
///
/// ffmpeg holds as much as the clip needs; here the frames held are counted against
/// `max-memory`, and a longer clip is an error naming the frame and time where it ran out
/// (trim it first: filesrc's start/duration), never memory that grows with the clip.
public final class ReverseNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "reverse",
        doc: "Plays the video backwards (ffmpeg's reverse, the same frames at the same times): the whole clip is held until it ends, within 'max-memory'; trim long inputs first (filesrc start/duration).",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video")],
        outputs: [PortSpec("out", .anyVideo, doc: "the frames last first, at the input's times")],
        params: ParamSpec.list(maxMemoryParam))
    /// Shared with `areverse`.
    static let maxMemoryParam = Param<Int>("max-memory", 1...65536, default: 1024,
                                           doc: "MiB of media the node may hold (it holds the whole clip until the end): a longer clip is an error naming where it ran out")

    let limit: Int
    var frameBytes = 0
    var frames: [SampleBuffer] = []
    var times: [(pts: Int64, duration: Int64, timeBase: Rational)] = []

    public init(setup: NodeSetup) throws {
        limit = setup.params[Self.maxMemoryParam] << 20
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let v = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        frameBytes = FrameLayout(format: v.pixelFormat, width: v.width, height: v.height).byteCount
        return [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try Self.checkRoom(held: frames.count * frameBytes, adding: frameBytes, limit: limit, what: "frame \(frames.count)",
                           at: buffer.presentationTime)
        times.append((buffer.pts, buffer.duration, buffer.timeBase))
        frames.append(buffer)
    }

    public func finish(output: NodeOutput) throws {
        for t in times {
            guard let frame = frames.popLast() else { break }
            try output.send(SampleBuffer.restamped(frame) { m in
                m.pts = t.pts; m.dts = t.pts; m.duration = t.duration; m.timeBase = t.timeBase
            })
        }
        times = []
    }

    public func abort() {
        frames = []
    }

    /// Refuses to hold `adding` more bytes beyond `held` when that passes `limit`.
    static func checkRoom(held: Int, adding: Int, limit: Int, what: String, at time: MediaTime?) throws {
        guard held + adding > limit else { return }
        let seconds = time.map { String(format: " at %.3f s", $0.seconds) } ?? ""
        throw NodeFailure("\(what)\(seconds) would pass param 'max-memory' (\(limit >> 20) MiB held, the whole clip waits for its end): reverse a shorter clip (filesrc start/duration) or raise max-memory")
    }
}
