import Foundation
import Testing

/// A private one-node Slurm cluster on 127.0.0.1 (scripts/slurm-local.sh) in a temporary
/// directory of its own, for the scale-out tests: each test starts its own, so tests may run in
/// parallel, and stops it when done. Needs root and setup.sh's slurm and munge packages.
/// Every wait is bounded: the client commands by `timeout`, the polls by their `timeout`.
struct LocalSlurmCluster: Sendable {
    static let script = CLI.root + "/scripts/slurm-local.sh"

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One job as `scontrol show job` last saw it; an array job is one of these per task.
    struct Job: Equatable, Sendable {
        var id: String              // JobId: a task's own id
        var arrayJobID: String?     // ArrayJobId, what sbatch printed for the whole array
        var arrayTaskID: Int?       // nil for a plain job (or tasks not yet split off, "1-2")
        var state: String           // JobState: COMPLETED, FAILED, CANCELLED, PENDING, ...
        var reason: String          // Reason: None, DependencyNeverSatisfied, ...
        var exitCode: Int32         // ExitCode's "code:signal", the script's exit status...
        var signal: Int32           // ...and the signal that ended it, if any

        /// A job that will not change any more: ended, or pending on a dependency that can no
        /// longer be met (Slurm leaves it pending forever unless kill_invalid_depend is set).
        var isFinal: Bool {
            !["PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING", "SIGNALING",
              "STAGE_OUT", "STOPPED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD"].contains(state)
                || (state == "PENDING" && reason == "DependencyNeverSatisfied")
        }
    }

    let dir: String
    var conf: String { dir + "/slurm.conf" }

    /// Starts a cluster in a fresh temporary directory; the script waits up to 30 s for the node.
    init() throws {
        dir = CLI.tempDir()
        let r = try CLI.run("timeout", ["-k", "5", "120", "bash", Self.script, "start", dir])
        guard r.status == 0 else {
            throw Failure(description: "slurm-local.sh start exited \(r.status):\n\(r.out)\(r.stderr)")
        }
    }

    /// Runs a Slurm client command against this cluster (SLURM_CONF), for at most 30 s.
    @discardableResult
    func client(_ program: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.run("timeout", ["-k", "5", "30", program] + arguments, environment: ["SLURM_CONF": conf])
    }

    /// Submits `script` (a shell script body) with sbatch's `arguments`; returns the job id (for
    /// `--array`, the array's id, which `wait` expands to its tasks).
    func sbatch(arguments: [String], script: String) throws -> String {
        let path = dir + "/job-\(UUID().uuidString).sh"
        guard FileManager.default.createFile(atPath: path, contents: Data("#!/bin/sh\n\(script)\n".utf8)) else {
            throw Failure(description: "could not write \(path)")
        }
        let r = try client("sbatch", ["--parsable"] + arguments + [path])
        // --parsable prints "id" or "id;cluster"
        let id = r.out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ";").first.map(String.init) ?? ""
        guard r.status == 0, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw Failure(description: "sbatch exited \(r.status): \(r.out)\(r.stderr)")
        }
        return id
    }

    /// This cluster's records of `job` (one per array task), from `scontrol show job -o`.
    /// Finished jobs stay visible for MinJobAge (an hour in the script's conf).
    func jobs(_ job: String) throws -> [Job] {
        let r = try client("scontrol", ["show", "job", "-o", job])
        guard r.status == 0 else { throw Failure(description: "scontrol show job \(job) exited \(r.status): \(r.stderr)") }
        return r.out.split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for token in line.split(separator: " ") {
                let kv = token.split(separator: "=", maxSplits: 1)
                if kv.count == 2, fields[String(kv[0])] == nil { fields[String(kv[0])] = String(kv[1]) }
            }
            let exit = (fields["ExitCode"] ?? "").split(separator: ":").map { Int32($0) ?? -1 }
            return Job(id: fields["JobId"] ?? "", arrayJobID: fields["ArrayJobId"],
                       arrayTaskID: fields["ArrayTaskId"].flatMap { Int($0) },
                       state: fields["JobState"] ?? "", reason: fields["Reason"] ?? "",
                       exitCode: exit.first ?? -1, signal: exit.count > 1 ? exit[1] : -1)
        }
    }

    /// Polls until every record of `jobs` is final (see `Job.isFinal`) and returns them, array
    /// tasks sorted by task id; throws after `timeout` seconds with what it saw last.
    func wait(jobs ids: [String], timeout: Double = 60) throws -> [Job] {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [Job] = []
        while true {
            seen = try ids.flatMap { id in try jobs(id).sorted { ($0.arrayTaskID ?? -1) < ($1.arrayTaskID ?? -1) } }
            if !seen.isEmpty && seen.allSatisfy(\.isFinal) { return seen }
            if Date() > deadline { throw Failure(description: "jobs \(ids) not finished after \(timeout) s: \(seen)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Ends the cluster's daemons, slurmstepds and jobs (bounded in the script: 10 s); a failure
    /// is recorded, not thrown, so that `defer { cluster.stop() }` works.
    func stop() {
        do {
            let r = try CLI.run("timeout", ["-k", "5", "60", "bash", Self.script, "stop", dir])
            if r.status != 0 { Issue.record("slurm-local.sh stop exited \(r.status): \(r.stderr)") }
        } catch {
            Issue.record("slurm-local.sh stop: \(error)")
        }
    }
}
