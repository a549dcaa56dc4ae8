import ArgumentParser
import Foundation
import MediaGraphCore
import MediaGraphNodes

/// `plan`: splits a graph's run into tasks for a cluster (Docs/scale-out.md).
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Split a graph's run into tasks that run on any machines, then join.",
        discussion: "Writes WORK/manifest.json. Task k is `mediagraph run-segment WORK/manifest.json --index k` (or with SLURM_ARRAY_TASK_ID set), on any machine that sees the same paths, in any order or all at once; when all have succeeded, `mediagraph join WORK/manifest.json` writes the graph's output. With --slurm, also WORK/tasks.sbatch, WORK/join.sbatch and WORK/submit.sh, which submits the tasks as an array job and the join to run after all of them succeeded.")

    @Argument(help: "The graph file (JSON).") var graph: String
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a param: id.param=value (repeatable); every task gets it.", valueName: "id.param=value"))
    var overrides: [String] = []
    @Option(help: "Video segments to split into (fewer when the video has fewer frames).") var segments: Int?
    @Option(help: "Or: about this many seconds of video a segment.") var segmentSeconds: Double?
    @Option(help: "Folder for the manifest and the parts (created). Default: the graph file's name with .plan, beside it.") var work: String?
    @Flag(help: "Also write Slurm batch scripts and WORK/submit.sh.") var slurm = false
    @Option(name: .customLong("stateless"), help: ArgumentHelp("A plugin node (frei0r or other) that keeps nothing from one frame to the next, so segments may run it (repeatable).", valueName: "id"))
    var stateless: [String] = []
    @OptionGroup var plugins: PluginOptions
    @Flag(name: .customLong("allow-plugins"), help: "Load every plugin the graph's \"plugins\" list names (only for graph files you trust).")
    var allowPlugins = false

    func run() throws {
        let workDirectory = work ?? ((graph as NSString).deletingPathExtension + ".plan")
        let size: SegmentSize
        switch (segments, segmentSeconds) {
        case (let n?, nil): size = .count(n)
        case (nil, let s?): size = .seconds(s)
        default:
            Console.error("error: give --segments N or --segment-seconds S (one of them)")
            throw ExitCode(2)
        }
        let manifest: SegmentManifest
        do {
            var spec = try GraphFile.load(path: graph, overrides: overrides)
            // read again as text: the manifest carries the graph as planned
            let text = String(decoding: (try? SmallFileReader.read(graph, limit: JSONLimits.maxBytes)) ?? [], as: UTF8.self)
            let registry = try GraphLoading.registry(for: spec, plugins: plugins, allowPlugins: allowPlugins)
            CommandLinePaths.resolve(in: &spec, registry: registry)
            manifest = try SegmentPlanner.plan(graphFile: graph, text: text, overrides: absolute(overrides, in: spec, registry: registry),
                                               spec: spec, registry: registry, statelessPlugins: Set(stateless),
                                               size: size, workDirectory: workDirectory)
        } catch let e as SegmentError {
            Console.error("\(graph): \(e)")
            throw ExitCode(2)
        } catch {
            GraphLoading.exitInvalid(label: graph, error)
        }
        let path = manifest.workDirectory + "/manifest.json"
        do {
            try FileManager.default.createDirectory(atPath: manifest.workDirectory, withIntermediateDirectories: true)
            try manifest.encoded().write(to: URL(fileURLWithPath: path), options: .atomic)
            if slurm { try SlurmScripts(manifest: manifest, manifestPath: path).write() }
        } catch {
            Console.error("error: cannot write the plan in '\(manifest.workDirectory)': \(error.localizedDescription)")
            throw ExitCode(1)
        }
        Console.out(PlanSummary.text(manifest, manifestPath: path, slurm: slurm))
    }
}

extension PlanCommand {
    /// The overrides with every path made absolute as `run` takes it (against this directory):
    /// a task runs in another directory, maybe on another machine.
    func absolute(_ overrides: [String], in spec: GraphSpec, registry: NodeRegistry) -> [String] {
        overrides.map { given in
            guard let eq = given.firstIndex(of: "="), let dot = given[..<eq].firstIndex(of: ".") else { return given }
            let id = String(given[..<dot]), param = String(given[given.index(after: dot)..<eq])
            guard let node = spec.nodes.first(where: { $0.id == id }),
                  case .path? = registry.entry(node.type)?.info.params.first(where: { $0.name == param })?.type,
                  let value = node.params?[param]?.stringValue, value.hasPrefix("/") else { return given }
            return "\(id).\(param)=\(value)"
        }
    }
}

/// `run-segment`: runs one task of a plan.
struct RunSegmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run-segment",
        abstract: "Run one task of a plan (mediagraph plan): a segment of the video, or the audio.",
        discussion: "The task is --index, or else the array index the scheduler sets: \(TaskIndex.variables.joined(separator: ", ")) (each counted from 0). The part is written as the graph's outputs are (a temporary file, renamed when whole), so a task can be run again.")

    @Argument(help: "The plan's manifest.json.") var manifest: String
    @Option(help: "The task to run (0…tasks−1).") var index: Int?
    @Flag(name: .shortAndLong, help: "No progress line, notes or closing summary.") var quiet = false
    @Flag(help: "Print the per-node table of `run --stats`.") var stats = false
    @OptionGroup var plugins: PluginOptions
    @Flag(name: .customLong("allow-plugins"), help: "Load every plugin the graph's \"plugins\" list names (only for graph files you trust).")
    var allowPlugins = false

    func run() throws {
        let m = try SegmentCommandSupport.read(manifest)
        guard let k = index ?? TaskIndex.fromEnvironment() else {
            Console.error("error: which task? Give --index (0…\(m.tasks.count - 1)) or run under a scheduler that sets one of \(TaskIndex.variables.joined(separator: ", "))")
            throw ExitCode(2)
        }
        let stop = InterruptHandler.stopFlag()
        let label = "task \(k) of '\(manifest)'"
        let graph = GraphLoading.instantiate(label: label, plugins: plugins, allowPlugins: allowPlugins, stop: stop, quiet: quiet) {
            let spec = try SegmentGraphs.task(m, index: k)
            try FileManager.default.createDirectory(atPath: m.workDirectory, withIntermediateDirectories: true)
            return spec
        }
        try GraphExecution.run(graph, stop: stop, quiet: quiet, stats: stats)
    }
}

/// `join`: puts a plan's parts together into the graph's output.
struct JoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join the parts of a plan's tasks into the graph's output, with the graph's own muxer.",
        discussion: "Every part is checked first: there, whole, encoded alike, one after another in time; a missing or bad part names the task to run again. The parts stay (remove the work folder when done).")

    @Argument(help: "The plan's manifest.json.") var manifest: String
    @Flag(name: .shortAndLong, help: "No progress line, notes or closing summary.") var quiet = false
    @Flag(help: "Print the per-node table of `run --stats`.") var stats = false
    @Flag(help: "Only check the parts: list the tasks to run again (exit 1 if any), write nothing.") var check = false

    func run() throws {
        let m = try SegmentCommandSupport.read(manifest)
        if check { return try checkParts(m) }
        let stop = InterruptHandler.stopFlag()
        // the join graph is ours (a muxer and two readers): no plugin is needed
        let graph = GraphLoading.instantiate(label: "join of '\(manifest)'", plugins: nil, allowPlugins: false, stop: stop, quiet: quiet) {
            try SegmentGraphs.join(m, manifestPath: manifest)
        }
        try GraphExecution.run(graph, stop: stop, quiet: quiet, stats: stats)
    }
}

extension JoinCommand {
    /// `--check`: each task's part, whole or why not, and how to run the others again.
    func checkParts(_ m: SegmentManifest) throws {
        let results = SegmentPartsCheck.run(m, manifestPath: manifest)
        for r in results { Console.out("task \(r.task): " + (r.problem ?? "whole") + "\n") }
        let again = results.filter { $0.problem != nil }.map(\.task)
        guard !again.isEmpty else {
            Console.out("every part is whole: mediagraph join \(manifest)\n")
            return
        }
        Console.out("\(again.count) of \(results.count) tasks to run again: " + again.map(String.init).joined(separator: ", ") + "\n")
        if FileManager.default.fileExists(atPath: m.workDirectory + "/tasks.sbatch") {
            Console.out("with Slurm: sbatch --array=" + again.map(String.init).joined(separator: ",") + " \(SlurmScripts.quoted(m.workDirectory + "/tasks.sbatch"))\n")
        } else {
            for k in again { Console.out("mediagraph run-segment \(manifest) --index \(k)\n") }
        }
        throw ExitCode(1)
    }
}

enum SegmentCommandSupport {
    static func read(_ path: String) throws -> SegmentManifest {
        do { return try SegmentManifest.read(path: path) } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// The array index a scheduler gives each task of an array job.
enum TaskIndex {
    /// Slurm, Kubernetes indexed Jobs, AWS Batch, PBS Pro: each from 0 as `plan` numbers tasks.
    static let variables = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "PBS_ARRAY_INDEX"]

    static func fromEnvironment() -> Int? {
        let env = ProcessInfo.processInfo.environment
        return variables.lazy.compactMap { env[$0].flatMap { Int($0) } }.first
    }
}
