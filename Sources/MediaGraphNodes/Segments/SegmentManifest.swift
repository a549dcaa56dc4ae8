import Foundation
import MediaGraphCore

/// What `mediagraph plan` decided for one graph: which tasks make up the run, each an ordinary
/// run of its own on any machine (`mediagraph run-segment --index k`), and how `mediagraph join`
/// puts their parts together. Engine-neutral JSON: any scheduler that runs an array of tasks
/// and then one more can carry it out (Docs/scale-out.md).
public struct SegmentManifest: Codable, Sendable, Equatable {
    /// The layout of this file; a reader refuses others.
    public static let currentVersion = 1
    public var version: Int = Self.currentVersion
    /// The graph file as planned, for messages.
    public var graphFile: String
    /// The graph's text as planned: every task runs this, whatever happens to the file later.
    public var graphText: String
    /// Where the graph's relative paths are taken from.
    public var baseDirectory: String
    /// `--set id.param=value` given to `plan`, applied to every task.
    public var overrides: [String]
    /// The muxer the graph ends in, which `join` runs on the parts.
    public var sink: String
    /// The sink's input that the video segments feed, and the one the audio task feeds (if any).
    public var videoInput: String
    public var audioInput: String?
    /// The nodes feeding those inputs (the encoders, or a source whose audio is copied).
    public var videoProducer: String
    public var audioProducer: String?
    /// A ladder's further video tracks (rung 1, 2, …; rung 0 is `videoInput`), each cut at the
    /// same pictures: a segment task writes one part per rung (`Task.part(rung:)`), and `join`
    /// reads each rung's parts with a `segments` node of its own.
    public var moreVideo: [MuxerInput]?
    /// Further audio tracks (several languages or bit rates): the audio task writes them all
    /// into its one part, in this order after the first, and `join` copies each to its input.
    public var moreAudio: [MuxerInput]?

    /// One input of the muxer and the node feeding it.
    public struct MuxerInput: Codable, Sendable, Equatable {
        public var input: String
        public var producer: String
    }

    /// Every video track, rung 0 first.
    public var videoTracks: [MuxerInput] { [MuxerInput(input: videoInput, producer: videoProducer)] + (moreVideo ?? []) }
    /// Every audio track, in the order of the audio part's tracks.
    public var audioTracks: [MuxerInput] {
        guard let input = audioInput, let producer = audioProducer else { return [] }
        return [MuxerInput(input: input, producer: producer)] + (moreAudio ?? [])
    }
    /// The node whose frames are split (a `filesrc` or a `testsrc`).
    public var source: String
    /// The file the cuts were found in, as it was: a task refuses to cut a file that changed.
    public var sourceFile: FileStamp?
    /// A `start` (microseconds) every task's source is given: in a file whose timestamps may jump
    /// (MPEG-TS), zero is where the streams read begin, and a task reads fewer streams than the
    /// whole run, so the whole run's zero is fixed for all (nil: the graph's own params).
    public var sourceStartMicros: Int64?
    /// Folder of the parts; the output is the sink's own path.
    public var workDirectory: String
    public var tasks: [Task]

    /// One task: a segment of the video, or the whole audio.
    public struct Task: Codable, Sendable, Equatable {
        public enum Kind: String, Codable, Sendable { case video, audio }
        public var index: Int
        public var kind: Kind
        /// The part the task writes (an MP4 of its encoded stream, the whole run's timestamps).
        public var part: String
        /// Pictures the segment presents.
        public var frames: Int?
        /// A `testsrc` segment: its first frame's number.
        public var firstFrame: Int?
        /// A `filesrc` segment: where its pictures start and end, microseconds after zero (nil:
        /// the run's own start or end).
        public var startMicros: Int64?
        public var endMicros: Int64?
        /// Pictures of the whole run before this segment's first: its nodes count frames (`n`)
        /// from here (`GraphSpec.firstFrameNumber`).
        public var framesBefore: Int?

        /// The part of a ladder's rung `rung` (rung 0: `part`).
        public func part(rung: Int) -> String {
            rung == 0 ? part : (part.hasSuffix(".mp4") ? String(part.dropLast(4)) : part) + "-rung\(rung).mp4"
        }
    }

    public var videoTasks: [Task] { tasks.filter { $0.kind == .video } }
    public var audioTask: Task? { tasks.first { $0.kind == .audio } }

    /// The manifest as JSON text (keys sorted, so two plans of one graph are the same file).
    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(self)
    }

    /// Reads a manifest, with a message naming the file for anything that is not one.
    public static func read(path: String) throws -> SegmentManifest {
        let bytes: [UInt8]
        do {
            bytes = try SmallFileReader.read(path, limit: JSONLimits.maxBytes)
        } catch {
            throw SegmentError("the manifest '\(path)': \(error.message(for: "manifest"))")
        }
        let m: SegmentManifest
        do {
            m = try JSONDecoder().decode(SegmentManifest.self, from: Data(bytes))
        } catch {
            throw SegmentError("'\(path)' is not a manifest written by `mediagraph plan`: \(SegmentError.describe(error))")
        }
        guard m.version == currentVersion else {
            throw SegmentError("'\(path)' is a manifest of layout \(m.version); this mediagraph reads layout \(currentVersion): plan again")
        }
        guard !m.tasks.isEmpty, m.tasks.enumerated().allSatisfy({ $0.offset == $0.element.index }) else {
            throw SegmentError("'\(path)': the tasks are not numbered 0, 1, 2, …: plan again")
        }
        for t in m.tasks {
            let numbers = [t.frames.map(Int64.init), t.firstFrame.map(Int64.init), t.startMicros, t.endMicros].compactMap { $0 }
            guard numbers.allSatisfy({ $0 >= 0 }), !t.part.isEmpty else {
                throw SegmentError("'\(path)': task \(t.index) has a negative frame count or time, or no part: plan again")
            }
        }
        return m
    }
}

/// A file's size and modification time, to notice that it was replaced or changed.
public struct FileStamp: Codable, Sendable, Equatable {
    public var path: String
    public var size: Int64
    /// Nanoseconds since 1970 (the file system's own resolution).
    public var modified: Int64

    /// The file as it is now; nil when it cannot be looked at.
    public static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(path: path, size: Int64(st.st_size), modified: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }

    /// Throws when the file is not as planned.
    func check() throws {
        guard let now = FileStamp.of(path) else {
            throw SegmentError("'\(path)', which the plan cut, cannot be read any more")
        }
        guard now == self else {
            throw SegmentError("'\(path)' changed since the plan (\(size) bytes then, \(now.size) now, or a newer time): the cuts may not fall on its pictures any more; plan again")
        }
    }
}

/// A planning, segment or join failure, with a message a person can act on.
public struct SegmentError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ message: String) { description = message }

    static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "the key \"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "at \(c.codingPath.map(\.stringValue).joined(separator: ".")): \(c.debugDescription)"
        case DecodingError.dataCorrupted(let c): return c.debugDescription
        default: return "\(error)"
        }
    }
}
