import MediaGraphCore

/// The graphs a plan's tasks run, made from the planned graph: a segment is the graph with its
/// video source limited to the segment's frames and its muxer replaced by an MP4 of the part;
/// the audio task is the graph's audio alone; `join` runs the graph's own muxer on the parts.
public enum SegmentGraphs {
    /// The graph task `index` of `manifest` runs.
    public static func task(_ manifest: SegmentManifest, index: Int) throws -> GraphSpec {
        guard manifest.tasks.indices.contains(index) else {
            throw SegmentError("task \(index) is not in the plan: its tasks are 0…\(manifest.tasks.count - 1)")
        }
        let task = manifest.tasks[index]
        try manifest.sourceFile?.check()
        var spec = try planned(manifest)
        if task.kind == .audio { return try audio(manifest, task: task, spec: spec) }
        // the muxer becomes an mp4 of the part; a ladder's further rungs get mp4s of their own
        let producers = manifest.videoTracks.map(\.producer)
        spec.edges.removeAll { $0.to.node == manifest.sink && !producers.contains($0.from.node) }
        var sinks: [String] = []
        for (rung, producer) in producers.enumerated() {
            let id = rung == 0 ? manifest.sink : uniqueID("\(manifest.sink)_rung\(rung)", in: spec)
            sinks.append(id)
            if rung > 0 { spec.add(id, "mp4", [("path", .str(task.part(rung: rung)))]) }
            for k in spec.edges.indices where spec.edges[k].to.node == manifest.sink && spec.edges[k].from.node == producer {
                spec.edges[k].to = PortRef(node: id, port: "video")
            }
        }
        keepOnlyUpstream(of: sinks, in: &spec)
        writePart(of: manifest, task, in: &spec)
        guard let s = spec.nodes.firstIndex(where: { $0.id == manifest.source }) else { return spec }
        spec.firstFrameNumber = task.framesBefore ?? 0
        if let first = task.firstFrame, let frames = task.frames {
            set(&spec.nodes[s], ("first-frame", .num(Double(first))), ("frames", .num(Double(frames))))
        }
        if let start = task.startMicros { set(&spec.nodes[s], ("segment-start", .str(seconds(start)))) }
        if let end = task.endMicros { set(&spec.nodes[s], ("segment-end", .str(seconds(end)))) }
        return spec
    }

    /// The audio task's graph: the sound alone, every audio track into one mp4 (`audio`,
    /// `audio1`, … in the manifest's order, which is the part's track order).
    static func audio(_ manifest: SegmentManifest, task: SegmentManifest.Task, spec planned: GraphSpec) throws -> GraphSpec {
        var spec = planned
        let tracks = manifest.audioTracks
        var kept: [GraphSpec.Edge] = []
        for (k, track) in tracks.enumerated() {
            // the edge feeding this input (an edge names its port, or is the producer's only one)
            guard let e = spec.edges.first(where: { $0.to.node == manifest.sink && $0.from.node == track.producer
                                                    && ($0.to.port == nil || $0.to.port == track.input) }) else {
                throw SegmentError("the graph has no edge from '\(track.producer)' to '\(manifest.sink).\(track.input)' any more: plan again")
            }
            var edge = e
            edge.to.port = k == 0 ? "audio" : "audio\(k)"
            kept.append(edge)
        }
        spec.edges.removeAll { $0.to.node == manifest.sink }
        spec.edges += kept
        keepOnlyUpstream(of: [manifest.sink], in: &spec)
        writePart(of: manifest, task, in: &spec)
        return spec
    }

    /// What every task does to the graph: its muxer becomes an mp4 of the task's part, and the
    /// source keeps the whole run's time zero.
    static func writePart(of manifest: SegmentManifest, _ task: SegmentManifest.Task, in spec: inout GraphSpec) {
        for k in spec.nodes.indices where spec.nodes[k].id == manifest.sink {
            spec.nodes[k] = GraphSpec.Node(id: manifest.sink, type: "mp4", params: .obj([("path", .str(task.part))]))
        }
        if let s = spec.nodes.firstIndex(where: { $0.id == manifest.source }), let start = manifest.sourceStartMicros {
            set(&spec.nodes[s], ("start", .str(seconds(start))))
        }
    }

    /// The graph `join` runs: the planned muxer, fed by a `segments` node reading the video parts
    /// and a `filesrc` reading the audio part.
    public static func join(_ manifest: SegmentManifest, manifestPath: String) throws -> GraphSpec {
        var spec = try planned(manifest)
        spec.nodes.removeAll { $0.id != manifest.sink }
        spec.edges = []
        let parts = manifest.sink == "parts" ? "parts_" : "parts"
        for (rung, track) in manifest.videoTracks.enumerated() {
            let id = rung == 0 ? parts : "\(parts)_rung\(rung)"
            spec.add(id, "segments", [("manifest", .str(SegmentPlanner.absolute(manifestPath)))] + (rung == 0 ? [] : [("rung", .num(Double(rung)))]))
            spec.edges.append(.init(from: PortRef(node: id, port: "video"), to: PortRef(node: manifest.sink, port: track.input)))
        }
        if let audio = manifest.audioTask {
            // the audio part is one whole file: an ordinary file source copies its tracks
            let id = parts + "_audio"
            spec.add(id, "filesrc", [("path", .str(audio.part))])
            for (k, track) in manifest.audioTracks.enumerated() {
                spec.edges.append(.init(from: PortRef(node: id, port: k == 0 ? "audio" : "audio\(k)"), to: PortRef(node: manifest.sink, port: track.input)))
            }
        }
        return spec
    }

    /// The graph as planned, `--set` overrides applied.
    static func planned(_ m: SegmentManifest) throws -> GraphSpec {
        try GraphFile.parse(text: m.graphText, file: m.graphFile, baseDirectory: m.baseDirectory, overrides: m.overrides)
    }

    /// An id not yet in the graph: `base`, or `base_2`, `base_3` …
    static func uniqueID(_ base: String, in spec: GraphSpec) -> String {
        var id = base, k = 2
        while spec.nodes.contains(where: { $0.id == id }) { id = "\(base)_\(k)"; k += 1 }
        return id
    }

    /// Removes every node that no sink in `sinks` reads from, and their edges.
    static func keepOnlyUpstream(of sinks: [String], in spec: inout GraphSpec) {
        var keep = Set(sinks), todo = sinks
        while let n = todo.popLast() {
            for e in spec.edges where e.to.node == n && !keep.contains(e.from.node) {
                keep.insert(e.from.node)
                todo.append(e.from.node)
            }
        }
        spec.nodes.removeAll { !keep.contains($0.id) }
        spec.edges.removeAll { !keep.contains($0.from.node) || !keep.contains($0.to.node) }
    }

    /// Sets params of a node, replacing any it had of the same name.
    static func set(_ node: inout GraphSpec.Node, _ values: (String, JSONValue)...) {
        var members = node.params?.objectMembers ?? []
        for (name, value) in values {
            members.removeAll { $0.key == name }
            members.append((name, value))
        }
        node.params = .object(members, node.params?.location)
    }

    /// Microseconds as exact decimal seconds ("12.345678"), the way a time param reads them.
    static func seconds(_ micros: Int64) -> String {
        let micros = max(0, micros)
        let frac = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - frac.count) + frac
    }
}
