import MediaGraphCodecs
import MediaGraphCore

/// Which tasks of a plan have left a whole part (`mediagraph join --check`): what to run again
/// before a join, without writing anything. Reads the parts as the join does (demuxing only).
public enum SegmentPartsCheck {
    /// One task's part: nil when it is whole, else why not.
    public struct Result: Sendable {
        public var task: Int
        public var problem: String?
    }

    public static func run(_ manifest: SegmentManifest, manifestPath: String) -> [Result] {
        var first: [Int: PartReader] = [:]
        return manifest.tasks.map { task in
            do {
                switch task.kind {
                case .video:
                    // every rung of a ladder has a part of its own
                    for rung in manifest.videoTracks.indices {
                        let r = try PartReader(task: task, rung: rung, manifestPath: manifestPath)
                        if let f = first[rung] { try r.check(against: f) } else { first[rung] = r }
                        while try r.read() != nil { r.sent += 1 }
                        try r.checkWhole()
                    }
                case .audio:
                    let d: Demuxer
                    do { d = try Demuxer(path: task.part) } catch let e as DemuxError {
                        throw NodeFailure("part \(task.index) ('\(task.part)') cannot be read: \(e.message)")
                    }
                    guard d.streams.contains(where: { $0.kind == .audio }) else {
                        throw NodeFailure("part \(task.index) ('\(task.part)') holds no audio stream")
                    }
                    do { while try d.read() != nil {} } catch let e as DemuxError {
                        throw NodeFailure("part \(task.index) ('\(task.part)') is damaged: \(e.message)")
                    }
                }
                return Result(task: task.index, problem: nil)
            } catch let e as NodeFailure {
                return Result(task: task.index, problem: e.message)
            } catch {
                return Result(task: task.index, problem: "\(error)")
            }
        }
    }
}
