import Foundation
import MediaGraphCodecs
import MediaGraphCore

/// `snapshot`: writes pictures (PNG, JPEG, WebP) of frames chosen by time, count, scene change
/// or on demand (SIGUSR1, a line on a control FIFO), meant to hang on a fan-out branch of a
/// graph that records. Encoding runs on a thread of its own (`SnapshotWriter`); the node's thread
/// only decides, measures scene change on a 64x36 luma grid, and hands over a reference to the
/// frame. A picture asked for while the previous one is still being written is skipped and
/// counted (a run warning), so the branch never holds back the graph; one that cannot be written
/// (a full disk) is counted too, and the recording goes on.
/// Pictures of a stream with a display rotation are upright, with the display's width and height
/// (`UprightFrames`).
public final class SnapshotSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "snapshot",
        doc: "Writes pictures of chosen frames (times, every N seconds or frames, scene changes, on demand by SIGUSR1 or a control FIFO) on a thread of its own; a request that comes while it is busy is skipped and counted.",
        category: .sink,
        inputs: [PortSpec("in", .video(ImageEncodingParams.inputFormats), doc: "raw video")],
        params: ParamSpec.list([pathParam, timesParam, everyParam, everyFramesParam, sceneParam, signalParam,
                                controlParam, startNumberParam, whenBusyParam] + ImageEncodingParams.all))
    static let pathParam = Param<String>.requiredPath("path", doc: "file name pattern: %d or %04d the picture's number, %t its time (HH-MM-SS.mmm), %% a percent sign; without a field each picture replaces the last")
    static let timesParam = Param<[Double]?>.times("times", count: 1...10_000, doc: "times on the stream's clock (seconds or \"hh:mm:ss.ms\"); each is taken by the first frame at or after it")
    static let everyParam = Param<Double?>("every", 0.001...1_000_000, doc: "a picture every this many seconds, from the first frame")
    static let everyFramesParam = Param<Int?>("every-frames", 1...100_000_000, doc: "a picture every this many frames, from the first")
    static let sceneParam = Param<Double?>("scene", 0.001...1, doc: "a picture when the scene-change score (mean luma difference on a 64x36 grid, 0–1) reaches this; 0.2 catches most cuts")
    static let signalParam = Param<Bool>("signal", default: false, doc: "take a picture of the next frame on each SIGUSR1")
    static let controlParam = Param<String?>.path("control", doc: "a FIFO (created if missing, removed at the end): each line written to it takes a picture of the next frame")
    static let startNumberParam = Param<Int>("start-number", 0...1_000_000_000, default: 1, doc: "number of the first picture (%d)")
    static let whenBusyParam = Param<String>("when-busy", oneOf: ["skip", "wait"], default: "skip",
                                             doc: "a picture asked for while the previous one is still being written: skip it (counted; the branch never holds back the graph) or wait (every picture is written; for files processed faster than real time)")

    /// On-demand requests kept waiting for frames at most (the rest of a flood is dropped).
    static let maxPendingDemands = 64

    let id: String
    let pattern: ImageNamePattern
    let settings: StillImageSettings
    let controlPath: String?
    let useSignal: Bool
    let sceneThreshold: Double?
    let hasTrigger: Bool
    let waitWhenBusy: Bool
    var schedule: SnapshotSchedule
    var meter = SnapshotSceneMeter()
    var number: Int
    var format: VideoFormat?
    var writer: SnapshotWriter?
    var control: SnapshotControlFIFO?
    var signalsSeen = 0
    var pendingDemands = 0
    var frames = 0
    var requested = 0
    var skipped = 0
    var firstSkip: Double?
    var lastSeconds = 0.0

    public init(setup: NodeSetup) throws {
        let p = setup.params
        id = setup.id
        let path = p[Self.pathParam]
        pattern = try ImageNamePattern(path, param: "path")
        settings = try ImageEncodingParams.settings(p, path: path, pathParam: "path")
        controlPath = p[Self.controlParam]
        useSignal = p[Self.signalParam]
        sceneThreshold = p[Self.sceneParam]
        schedule = SnapshotSchedule(times: p[Self.timesParam] ?? [], every: p[Self.everyParam], everyFrames: p[Self.everyFramesParam])
        number = p[Self.startNumberParam]
        waitWhenBusy = p[Self.whenBusyParam] == "wait"
        hasTrigger = p[Self.timesParam] != nil || p[Self.everyParam] != nil || p[Self.everyFramesParam] != nil
            || sceneThreshold != nil || useSignal || controlPath != nil
    }

    public var validationWarnings: [String] {
        hasTrigger ? [] : ["snapshot '\(id)': no times, interval, scene threshold, signal or control FIFO is set: it will write nothing"]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        format = inputs[0].format.video
        // the picture is the upright frame: a rotated stream's display size is what is checked
        if let format, let problem = StillImageEncoder.sizeProblem(settings, source: UprightFrames.uprightFormat(format)) {
            throw NodeFailure(problem)
        }
        return []
    }

    public func start() throws {
        guard let format else { return }
        let upright = try UprightFrames(source: format, threads: 1)
        let encoder = try StillImageEncoder(settings: settings, source: upright.upright)
        // the handler first: a script that waits for the FIFO to appear may signal at once
        if useSignal {
            SnapshotSignal.install()
            signalsSeen = SnapshotSignal.count
        }
        if let controlPath { control = try SnapshotControlFIFO(path: controlPath) }
        let w = SnapshotWriter(encoder: encoder, upright: upright)
        w.start(name: "snapshot \(id)")
        writer = w
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let writer else { return }
        let seconds = frame.seconds
        lastSeconds = seconds
        frames += 1
        var wanted = schedule.wants(seconds: seconds)
        if let sceneThreshold, meter.score(frame.planes) >= sceneThreshold, frames > 1 { wanted = true }
        if useSignal {
            let count = SnapshotSignal.count
            pendingDemands += count - signalsSeen
            signalsSeen = count
        }
        if let control { pendingDemands += control.takeRequests() }
        // a flood of requests is taken one per frame, and at most this many wait (bounded)
        pendingDemands = Swift.min(pendingDemands, Self.maxPendingDemands)
        if pendingDemands > 0 {
            pendingDemands -= 1
            wanted = true
        }
        guard wanted else { return }
        requested += 1
        let path = pattern.name(number: number, seconds: seconds)
        let job = SnapshotWriter.Job(buffer: frame.take(), path: path, seconds: seconds)
        if waitWhenBusy {
            writer.hand(job)
            number += 1
        } else if writer.offer(job) {
            number += 1
        } else {
            skipped += 1
            if firstSkip == nil { firstSkip = seconds }
        }
    }

    public func finish(output: NodeOutput) throws {
        writer?.stop()
        control?.close()
    }

    public func abort() {
        writer?.stop()
        control?.close()
    }

    /// Pictures written so far (after the run: all of them).
    public var picturesWritten: Int { writer?.picturesWritten ?? 0 }
    /// Requests skipped because the writer was busy.
    public var picturesSkipped: Int { skipped }

    public var runWarnings: [String] {
        var out: [String] = []
        if skipped > 0 {
            let at = firstSkip.map { ", the first at \(ImageNamePattern.displayClock($0))" } ?? ""
            out.append("snapshot '\(id)': skipped \(skipped) of \(requested) pictures because the previous one was still being written\(at) (fewer requests, a faster format, a lower 'effort' or a smaller size help)")
        }
        if let failures = writer?.failures, let first = failures.first {
            let at = ImageNamePattern.displayClock(first.seconds)
            out.append("snapshot '\(id)': \(failures.count) of \(requested) pictures could not be written, the first at \(at): \(first.error); the recording went on")
        }
        let late = schedule.untakenTimes
        if !late.isEmpty {
            out.append("snapshot '\(id)': \(late.count) of the times (from \(late.first ?? 0) s) came after the last frame (\(lastSeconds) s): no picture for them")
        }
        return out
    }
}
