import Foundation
import MediaGraphCore
import MediaGraphNodes

/// What `plan` prints: the tasks, and how to run them.
enum PlanSummary {
    static func text(_ m: SegmentManifest, manifestPath: String, slurm: Bool) -> String {
        var out = "task  kind   frames  from          to\n"
        for t in m.tasks {
            let frames = t.frames.map(String.init) ?? "all"
            let from = t.firstFrame.map { "frame \($0)" } ?? t.startMicros.map(clock) ?? (t.kind == .video ? "start" : "")
            let to = t.firstFrame.map { f in "frame \(f + (t.frames ?? 0))" } ?? t.endMicros.map(clock) ?? (t.kind == .video ? "end" : "")
            out += String(t.index).padded(6) + t.kind.rawValue.padded(7) + frames.padded(8) + from.padded(14) + to + "\n"
        }
        out += "manifest: \(manifestPath)\n"
        if slurm {
            out += "submit: sh \(m.workDirectory)/submit.sh\n"
        } else {
            out += "run each task: mediagraph run-segment \(manifestPath) --index K   (K = 0…\(m.tasks.count - 1), anywhere, in any order)\n"
            out += "then: mediagraph join \(manifestPath)\n"
        }
        return out
    }

    static func clock(_ micros: Int64) -> String { TimeValue.clock(Rational(micros, 1_000_000)) }
}

/// The Slurm side of a plan: the tasks as an array job, the join as a job that runs once every
/// task succeeded (`--dependency=afterok`), and a script that submits both.
struct SlurmScripts {
    let manifest: SegmentManifest
    let manifestPath: String

    func write() throws {
        let exe = Self.quoted(Self.executable)
        let work = manifest.workDirectory, name = Self.jobName(manifest.graphFile)
        let tasks = """
            #!/bin/bash
            #SBATCH --job-name=\(name)
            #SBATCH --array=0-\(manifest.tasks.count - 1)
            #SBATCH --output=\(work)/task-%a.log
            # each array task runs one task of the plan: SLURM_ARRAY_TASK_ID picks it
            exec \(exe) run-segment \(Self.quoted(manifestPath)) --quiet

            """
        let join = """
            #!/bin/bash
            #SBATCH --job-name=\(name)-join
            #SBATCH --output=\(work)/join.log
            exec \(exe) join \(Self.quoted(manifestPath)) --quiet

            """
        let submit = """
            #!/bin/sh
            # Submits the plan's tasks as an array job and the join, which runs after all succeeded.
            set -e
            tasks=$(sbatch --parsable \(Self.quoted(work + "/tasks.sbatch")))
            tasks=${tasks%%;*}
            join=$(sbatch --parsable --dependency=afterok:$tasks --kill-on-invalid-dep=yes \(Self.quoted(work + "/join.sbatch")))
            echo "tasks: job $tasks; join: job ${join%%;*}"

            """
        for (file, text) in [("tasks.sbatch", tasks), ("join.sbatch", join), ("submit.sh", submit)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: work + "/" + file), options: .atomic)
        }
    }

    /// This mediagraph, by its absolute path, so that the jobs run the same build.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// A job name from the graph file's name: letters, digits, '-' and '_' only.
    static func jobName(_ graphFile: String) -> String {
        let base = ((graphFile as NSString).lastPathComponent as NSString).deletingPathExtension
        return "mediagraph-" + String(base.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
    }

    /// A single-quoted shell word.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
