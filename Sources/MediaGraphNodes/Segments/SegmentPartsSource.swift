import MediaGraphCodecs
import MediaGraphCore

/// `segments`: the video parts of a plan (`mediagraph run-segment`), read one after another as
/// one stream of packets, copied: what `mediagraph join` feeds the graph's muxer. Each part is
/// checked before its packets go on: it exists and is whole (as many pictures as planned), its
/// codec configuration is the first part's, and it follows the part before in time.
public final class SegmentPartsSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "segments",
        doc: "Reads the video parts that the tasks of a plan wrote (mediagraph plan / run-segment), one after another as one stream, copied; what mediagraph join runs (Docs/scale-out.md).",
        category: .source,
        outputs: [PortSpec("video", .encodedVideo(Codec.known.filter { $0.kind == .video }), doc: "the parts' video, copied")],
        params: ParamSpec.list(manifestParam, rungParam))
    static let manifestParam = Param<String>.requiredPath("manifest", role: .input, doc: "the plan's manifest (mediagraph plan writes it)")
    static let rungParam = Param<Int>("rung", 0...1000, default: 0, doc: "which video track of a ladder (0: the first the muxer takes), when the planned graph's muxer takes several")

    let manifest: SegmentManifest
    let manifestPath: String
    let tasks: [SegmentManifest.Task]
    let rung: Int
    let first: PartReader
    let stop: StopFlag
    var reader: PartReader?
    var next = 0
    /// The previous part's last times, to check the next one follows.
    var lastPTS: Int64?, lastDTS: Int64?

    public init(setup: NodeSetup) throws {
        manifestPath = setup.params[Self.manifestParam]
        stop = setup.stop
        do { manifest = try SegmentManifest.read(path: manifestPath) } catch let e as SegmentError { throw NodeFailure(e.description) }
        tasks = manifest.videoTasks
        rung = setup.params[Self.rungParam]
        guard let task = tasks.first else { throw NodeFailure("'\(manifestPath)' plans no video segment") }
        guard rung < manifest.videoTracks.count else {
            throw NodeFailure("param 'rung': \(rung), but '\(manifestPath)' plans \(manifest.videoTracks.count) video track\(manifest.videoTracks.count == 1 ? "" : "s") (0…\(manifest.videoTracks.count - 1))")
        }
        first = try PartReader(task: task, rung: rung, manifestPath: manifestPath)
    }

    public var expectedCount: Int? { tasks.reduce(0) { $0 + ($1.frames ?? 0) } }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [first.description.format] }

    public func produce(output: NodeOutput) throws -> Bool {
        if stop.isSet { return false }
        if reader == nil {
            guard next < tasks.count else { return false }
            let r = next == 0 ? first : try PartReader(task: tasks[next], rung: rung, manifestPath: manifestPath)
            try r.check(against: first)
            reader = r
            next += 1
        }
        guard let r = reader else { return false }
        guard let p = try r.read() else {
            try r.checkWhole()
            reader = nil
            return true
        }
        let tb = r.description.timeBase
        let pts = p.pts, dts = p.dts == DemuxedPacket.noTime ? p.pts : p.dts
        if r.sent == 0 {
            guard p.isKeyFrame else { throw NodeFailure("\(r.name) does not begin with a key frame; run its task again") }
            if let lp = lastPTS, let ld = lastDTS, pts <= lp || dts <= ld {
                throw NodeFailure("\(r.name) begins at \(clock(pts, tb)) (decoded at \(clock(dts, tb))), not after the part before, which ends at \(clock(lp, tb)) (decoded at \(clock(ld, tb))): the parts overlap; plan and run again")
            }
        }
        lastPTS = max(lastPTS ?? pts, pts)
        lastDTS = dts
        r.sent += 1
        let metadata = BufferMetadata(format: r.description.format, pts: pts, dts: dts, duration: max(0, p.duration),
                                      timeBase: tb, flags: p.isKeyFrame ? .keyFrame : [],
                                      codecConfiguration: r.description.configuration)
        try output.send(SampleBuffer(packet: p.bytes, metadata: metadata))
        return true
    }

    func clock(_ t: Int64, _ tb: Rational) -> String {
        // a part is a file like any other: its times may be anything
        let (ticks, overflow) = t.multipliedReportingOverflow(by: tb.num)
        return overflow || (ticks / max(1, tb.den)).magnitude > 1_000_000_000 ? "\(t) ticks of \(tb)" : TimeValue.clock(Rational(ticks, tb.den))
    }
}

/// One part: its file open, its one video stream described.
final class PartReader {
    let task: SegmentManifest.Task
    let name: String
    let demuxer: Demuxer
    let description: FileStreamDescription
    var sent = 0

    /// - Parameter rung: a ladder's video track (0 for the first, or the only one).
    init(task: SegmentManifest.Task, rung: Int, manifestPath: String) throws {
        self.task = task
        name = "part \(task.index)\(rung == 0 ? "" : " of rung \(rung)") ('\(task.part(rung: rung))')"
        let rerun = "; run `mediagraph run-segment \(manifestPath) --index \(task.index)`"
        do {
            demuxer = try Demuxer(path: task.part(rung: rung))
        } catch let e as DemuxError {
            throw NodeFailure("\(name) cannot be read: \(e.message)\(rerun)")
        }
        let video = demuxer.streams.filter { $0.kind == .video }
        guard video.count == 1, let info = video.first, demuxer.streams.count == 1 else {
            throw NodeFailure("\(name) holds \(demuxer.streams.count) streams, not one video stream\(rerun)")
        }
        demuxer.select([info.index])
        description = FileStreamDescription(info: info, timeBase: info.timeBase, firstPacket: nil)
    }

    /// The parts are one stream only if they were encoded alike.
    func check(against first: PartReader) throws {
        guard description.configuration == first.description.configuration else {
            throw NodeFailure("\(name) was encoded with other settings than part 0 (its codec configuration differs: \(description.format) against \(first.description.format)); were the graph's encoder params changed between tasks? Plan and run again")
        }
        guard description.timeBase == first.description.timeBase else {
            throw NodeFailure("\(name) has the time base \(description.timeBase), part 0 \(first.description.timeBase); plan and run again")
        }
    }

    func read() throws -> DemuxedPacket? {
        do {
            guard let p = try demuxer.read() else { return nil }
            guard p.pts != DemuxedPacket.noTime else { throw NodeFailure("\(name): packet \(sent) has no time") }
            return p
        } catch let e as DemuxError {
            throw NodeFailure("\(name) is damaged after \(sent) packets: \(e.message); run its task again")
        }
    }

    /// A part that ends early (its task killed before the rename cannot leave one, but a copy can).
    func checkWhole() throws {
        if let frames = task.frames, sent != frames {
            throw NodeFailure("\(name) holds \(sent) pictures; the plan gives its segment \(frames); run its task again")
        }
    }
}
