import Foundation
import MediaGraphCodecs
import MediaGraphCore

/// Splits a graph's run into tasks (`mediagraph plan`): the video between its source and its
/// muxer becomes segments by frame ranges, each an ordinary run; the audio, cheap to encode and
/// not cleanly cut (every AAC part would begin with its own priming), is one task of its own.
/// What a graph must be to split, and why, is checked here, before anything runs.
public enum SegmentPlanner {
    /// Muxers whose parts `join` can put together (it runs the graph's own muxer on them).
    static let muxers: Set<String> = ["mp4", "matroska", "mpegts", "hls", "dash"]

    /// Node types whose output depends on frames outside the one at hand or on its place in the
    /// whole stream: a segment, which starts afresh, would give other pictures.
    static let orderDependent: [String: String] = [
        "setpts": "its expressions see the frame count N and earlier frames, which start again in each segment",
        "fps": "it keeps or repeats frames by their place in the whole stream",
        "deinterlace": "it reads the frames before and after each one, which a segment's first and last do not have",
        "concat": "it places its clips one after another on one timeline",
        "transition": "it blends two clips over a stretch of the timeline",
        "reverse": "it plays the whole clip backwards, where a segment would reverse only its own frames, in its own place",
        "realtime": "it paces the run by the wall clock, as a live feed, which tasks run apart and at once cannot keep",
    ]
    /// Sources of one picture repeated, which every segment reads whole.
    static let stills: Set<String> = ["imagesrc"]
    /// Identifiers of ffmpeg's expressions that count frames from the start of the run (a segment
    /// gives its nodes the whole run's numbers; setpts's N is refused with setpts).
    static let frameCounters: Set<String> = ["n", "N", "frame_num"]

    /// Plans `spec` (the graph file `graphFile`, whose text is `text`) into video segments of
    /// `size`, parts in `workDirectory`.
    /// `statelessPlugins`: ids of plugin nodes the user says keep nothing between frames.
    public static func plan(graphFile: String, text: String, overrides: [String], spec: GraphSpec,
                            registry: NodeRegistry, statelessPlugins: Set<String> = [], size: SegmentSize,
                            workDirectory: String) throws -> SegmentManifest {
        try size.check()
        let plan = try GraphPlan(validating: spec, registry: registry)
        for id in statelessPlugins.sorted() where !plan.nodes.contains(where: { $0.id == id && $0.info.origin != "built-in" }) {
            let node = plan.nodes.first { $0.id == id }
            throw SegmentError("--stateless \(id): " + (node.map { "node '\(id)' is the built-in \($0.info.name), not a plugin" } ?? "the graph has no node '\(id)'"))
        }
        let sinks = plan.nodes.indices.filter { plan.nodes[$0].info.category == .sink }
        guard sinks.count == 1, let sink = sinks.first else {
            throw SegmentError("a graph to plan ends in one muxer (\(muxers.sorted().joined(separator: ", "))); this one has \(sinks.count) sinks: \(sinks.map { "'\(plan.nodes[$0].id)' (\(plan.nodes[$0].info.name))" }.joined(separator: ", "))")
        }
        let sinkNode = plan.nodes[sink]
        guard muxers.contains(sinkNode.info.name) else {
            throw SegmentError("node '\(sinkNode.id)': a planned graph ends in a muxer (\(muxers.sorted().joined(separator: ", "))), whose parts can be joined; found \(sinkNode.info.name)")
        }
        let inputs = plan.incoming(sink)
        let video = inputs.filter { if case .encodedVideo? = caps(of: $0, in: plan) { return true } else { return false } }
        let audio = inputs.filter { if case .encodedAudio? = caps(of: $0, in: plan) { return true } else { return false } }
        guard let videoEdge = video.first else {
            throw SegmentError("node '\(sinkNode.id)': a planned graph's muxer takes a video track, which is split; found none")
        }
        // a ladder: every video track is cut at the same pictures, each into parts of its own
        for (k, e) in video.enumerated() {
            if let other = video[..<k].first(where: { $0.from == e.from }) {
                throw SegmentError("node '\(sinkNode.id)': inputs '\(other.input)' and '\(e.input)' both come from node '\(plan.nodes[e.from].id)'; give each video track an encoder of its own")
            }
            guard upstream(of: e.from, in: plan).contains(where: { plan.nodes[$0].info.category == .encoder }) else {
                throw SegmentError("node '\(sinkNode.id)': its video\(video.count > 1 ? " '\(e.input)'" : "") is copied, not encoded, so there is no work to split (a copy runs at disk speed)")
            }
        }
        let branch = video.reduce(into: Set<Int>()) { $0.formUnion(upstream(of: $1.from, in: plan)) }
        // a still picture (a logo over the video) is the same in every segment: it is not split
        let sources = branch.filter { plan.nodes[$0].info.category == .source && !stills.contains(plan.nodes[$0].info.name) }
        guard sources.count == 1, let source = sources.first else {
            throw SegmentError("the video reaching '\(sinkNode.id)' comes from \(sources.count) sources (\(sources.map { "'\(plan.nodes[$0].id)'" }.joined(separator: ", "))); a planned graph splits the frames of one (and may add still pictures: imagesrc)")
        }
        // a segment's nodes count frames from its first picture's number in the whole run; a
        // still picture's branch, which each segment reads whole, has no such number
        let fromSource = downstream(of: source, in: plan)
        for n in branch.sorted() {
            let node = plan.nodes[n]
            try checkOrderIndependent(node, countsFrames: fromSource.contains(n))
            // a plugin may keep a trail, a delay or a learned background from frame to frame,
            // which a segment would start afresh: only the user knows it does not
            if node.info.origin != "built-in" && !statelessPlugins.contains(node.id) {
                throw SegmentError("node '\(node.id)' (\(node.info.name)) is a plugin, which may keep something from one frame to the next (a trail, a delay, a learned background) that each segment would start afresh; if it does not, plan with --stateless \(node.id)")
            }
        }

        let sourceNode = plan.nodes[source]
        let ranges: [SegmentRange]
        var sourceStart: Int64?
        switch sourceNode.info.name {
        case "testsrc": ranges = try testSourceRanges(sourceNode, size: size)
        case "filesrc":
            func port(_ e: GraphPlan.Edge) -> String {
                if case .named(let n) = e.output { return n ?? "video" }
                return "video"
            }
            let video = plan.edges.first { $0.from == source && branch.contains($0.to) }.map(port) ?? "video"
            let connected = Array(Set(plan.edges.filter { $0.from == source }.map(port))).sorted()
            let cuts = try FileSegmentScan(node: sourceNode, port: video, connectedPorts: connected).cuts(size: size)
            ranges = cuts.ranges
            sourceStart = cuts.start
        default:
            throw SegmentError("node '\(sourceNode.id)': a planned graph's video comes from a filesrc or a testsrc, whose frames can be read from any point; found \(sourceNode.info.name)")
        }

        let stamp = sourceNode.info.name == "filesrc" ? FileStamp.of(sourceNode.params[FileSource.pathParam]) : nil
        let work = absolute(workDirectory)
        // parts are named by the plan, so a new plan in the same folder never joins an older one's
        let id = String(UUID().uuidString.prefix(8)).lowercased()
        var tasks: [SegmentManifest.Task] = ranges.enumerated().map { k, r in
            SegmentManifest.Task(index: k, kind: .video, part: work + "/" + String(format: "part-%@-%05d.mp4", id, k), frames: r.frames,
                                 firstFrame: r.firstFrame, startMicros: r.startMicros, endMicros: r.endMicros,
                                 framesBefore: ranges[..<k].reduce(0) { $0 + $1.frames })
        }
        if !audio.isEmpty {
            tasks.append(SegmentManifest.Task(index: tasks.count, kind: .audio, part: work + "/audio-\(id).mp4"))
        }
        return SegmentManifest(graphFile: absolute(graphFile), graphText: text, baseDirectory: absolute(spec.baseDirectory),
                               overrides: overrides, sink: sinkNode.id, videoInput: videoEdge.input,
                               audioInput: audio.first?.input, videoProducer: plan.nodes[videoEdge.from].id,
                               audioProducer: audio.first.map { plan.nodes[$0.from].id },
                               moreVideo: video.count > 1 ? video.dropFirst().map { SegmentManifest.MuxerInput(input: $0.input, producer: plan.nodes[$0.from].id) } : nil,
                               moreAudio: audio.count > 1 ? audio.dropFirst().map { SegmentManifest.MuxerInput(input: $0.input, producer: plan.nodes[$0.from].id) } : nil,
                               source: sourceNode.id, sourceFile: stamp,
                               sourceStartMicros: sourceStart, workDirectory: work, tasks: tasks)
    }

    /// The caps of the output an edge leaves.
    static func caps(of edge: GraphPlan.Edge, in plan: GraphPlan) -> FormatCaps? {
        let outputs = plan.nodes[edge.from].info.outputs
        switch edge.output {
        case .index(let i): return outputs.indices.contains(i) ? outputs[i].caps : nil
        case .named(let name): return (name.flatMap { n in outputs.first { $0.matches(n) } } ?? outputs.first)?.caps
        }
    }

    /// Node `n` and every node it reads from.
    static func upstream(of n: Int, in plan: GraphPlan) -> Set<Int> { reachable(from: n, in: plan, forward: false) }

    /// Node `n` and every node that reads from it.
    static func downstream(of n: Int, in plan: GraphPlan) -> Set<Int> { reachable(from: n, in: plan, forward: true) }

    /// Node `n` and every node reached along edges, forward (to readers) or back (to producers).
    static func reachable(from n: Int, in plan: GraphPlan, forward: Bool) -> Set<Int> {
        var seen: Set<Int> = [n], todo = [n]
        while let k = todo.popLast() {
            for e in plan.edges {
                let (here, next) = forward ? (e.from, e.to) : (e.to, e.from)
                if here == k && seen.insert(next).inserted { todo.append(next) }
            }
        }
        return seen
    }

    /// Refuses a node whose output a segment could not reproduce. `countsFrames`: the node sees
    /// the split source's pictures, so a param counting them (`n`) is given the whole run's numbers.
    static func checkOrderIndependent(_ node: GraphPlan.Node, countsFrames: Bool) throws {
        if let why = orderDependent[node.info.name] {
            throw SegmentError("node '\(node.id)' (\(node.info.name)) cannot run in segments: \(why). Run the graph whole, or put that step in a graph of its own")
        }
        for spec in node.info.params {
            if case .path = spec.type { continue }
            guard let value = node.params[spec.name] else { continue }
            for text in strings(in: value) where !frameCounters.isDisjoint(with: identifiers(in: text)) && !countsFrames {
                throw SegmentError("node '\(node.id)' (\(node.info.name)): param '\(spec.name)' counts the frames of a still picture, which every segment reads from its start; use the time t, which segments keep")
            }
        }
    }

    static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let s, _): return [s]
        case .array(let a, _): return a.flatMap(strings(in:))
        case .object(let m, _): return m.flatMap { strings(in: $0.value) }
        default: return []
        }
    }

    /// The identifiers of an expression or a text template (`%{n}`, `sin(n*PI)`).
    static func identifiers(in text: String) -> Set<String> {
        var found: Set<String> = [], word = ""
        for c in text.unicodeScalars {
            if c == "_" || (c.properties.isAlphabetic && c.isASCII) || (!word.isEmpty && c.properties.numericType != nil && c.isASCII) {
                word.unicodeScalars.append(c)
            } else {
                if !word.isEmpty { found.insert(word) }
                word = ""
            }
        }
        if !word.isEmpty { found.insert(word) }
        return found
    }

    static func testSourceRanges(_ node: GraphPlan.Node, size: SegmentSize) throws -> [SegmentRange] {
        let frames = node.params.int("frames", default: 0), first = node.params.int("first-frame", default: 0)
        guard frames > 0 else {
            throw SegmentError("node '\(node.id)' (testsrc) has frames: 0 (until stopped); a planned run needs an end")
        }
        let rate = node.params[TestSource.rateParam]
        let n = size.count(pictures: frames, seconds: Double(frames) * Double(rate.den) / Double(rate.num))
        return (0..<n).map { k in
            let a = k * frames / n, b = (k + 1) * frames / n
            return SegmentRange(frames: b - a, firstFrame: first + a)
        }
    }

    static func absolute(_ path: String) -> String {
        let p = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (p as NSString).standardizingPath
    }
}

/// One video segment as planned.
struct SegmentRange {
    var frames: Int
    var firstFrame: Int?
    var startMicros: Int64?
    var endMicros: Int64?
}

/// How long the segments are: a number of them, or about so many seconds each.
public enum SegmentSize: Sendable {
    case count(Int)
    case seconds(Double)

    func check() throws {
        switch self {
        case .count(let n) where n < 1: throw SegmentError("--segments must be at least 1, found \(n)")
        case .seconds(let s) where !(s > 0 && s.isFinite): throw SegmentError("--segment-seconds must be more than 0, found \(s)")
        default: break
        }
    }

    /// Segments for `pictures` pictures lasting `seconds`: at most one a picture.
    func count(pictures: Int, seconds: Double) -> Int {
        switch self {
        case .count(let n): return max(1, min(n, pictures))
        case .seconds(let s): return max(1, min(pictures, Int((seconds / s).rounded(.up))))
        }
    }
}
