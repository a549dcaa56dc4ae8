import Foundation
import Testing

/// A plan carried out by Slurm as `plan --slurm` sets it up: `submit.sh` submits the tasks as an
/// array job and the join after them, on a one-node cluster on loopback that the test starts
/// (LocalSlurmCluster). The joined file decodes to the whole run's pictures; a failed task keeps
/// the join from running, so no output appears. Root only, as the cluster's daemons.
@Suite struct SlurmSegmentTests {
    @Test(.enabled(if: getuid() == 0)) func aPlanRunsAsAnArrayJobAndTheJoinAfterIt() throws {
        let cluster = try LocalSlurmCluster()
        defer { cluster.stop() }
        let dir = CLI.tempDir()
        _ = try SegmentPlanTests.clip(in: dir)
        let graph = CLI.writeGraph("""
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.mp4", "duration": 6}}, "fx": {"type": "sepia"},
                       "venc": {"type": "h264", "params": {"preset": "ultrafast", "crf": 0}}, "aenc": {"type": "aac"},
                       "mux": {"type": "mp4", "params": {"path": "out.mp4"}}},
             "chains": [["in.video", "fx", "venc", "mux.video"], ["in.audio", "aenc", "mux.audio"]]}
            """, in: dir)

        /// Plans into `work`, submits, waits; the job ids of the tasks and the join, and their records.
        func submit(_ work: String, prepare: () throws -> Void = {}) throws -> [LocalSlurmCluster.Job] {
            let plan = try CLI.mediagraph("plan", graph, "--segments", "3", "--work", work, "--slurm")
            #expect(plan.status == 0, "\(plan.stderr)")
            try prepare()
            let r = try cluster.client("sh", [work + "/submit.sh"])
            #expect(r.status == 0, "submit.sh: \(r.out) \(r.stderr)")
            // "tasks: job 12; join: job 13"
            let ids = r.out.split(whereSeparator: { !$0.isNumber }).map(String.init)
            guard ids.count == 2 else { Issue.record("submit.sh printed \(r.out)"); return [] }
            return try cluster.wait(jobs: ids, timeout: 240)
        }

        let done = try submit(dir + "/work")
        #expect(done.map(\.arrayTaskID) == [0, 1, 2, 3, nil], "\(done)")
        #expect(done.allSatisfy { $0.state == "COMPLETED" && $0.exitCode == 0 }, "\(done)")
        #expect(try CLI.mediagraph(["run", "--quiet", graph, "--set", "mux.path=" + dir + "/whole.mp4"]).status == 0)
        let joined = try SegmentPlanTests.pictures(dir + "/out.mp4")
        #expect(joined.count == 150)
        #expect(joined == (try SegmentPlanTests.pictures(dir + "/whole.mp4")))
        #expect(FileManager.default.fileExists(atPath: dir + "/work/task-2.log"))

        // task 1 cannot write its part (a folder is in the way): it fails, the join is never run
        try FileManager.default.removeItem(atPath: dir + "/out.mp4")
        let failed = try submit(dir + "/failing") {
            try FileManager.default.createDirectory(atPath: try SegmentPlanTests.part(1, of: dir + "/failing/manifest.json"), withIntermediateDirectories: true)
        }
        #expect(failed.first { $0.arrayTaskID == 1 }?.state == "FAILED", "\(failed)")
        #expect(failed.last?.arrayTaskID == nil && failed.last?.reason == "DependencyNeverSatisfied", "\(failed)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.mp4"), "the join ran after a failed task")

        // what `join --check` says to run again, run again, and then the join
        let manifest = dir + "/failing/manifest.json"
        let check = try CLI.mediagraph("join", manifest, "--check")
        #expect(check.status == 1 && check.out.contains("with Slurm: sbatch --array=1 "), "\(check.out)")
        try FileManager.default.removeItem(atPath: try SegmentPlanTests.part(1, of: manifest))
        func sbatch(_ arguments: [String]) throws -> String {
            let r = try cluster.client("sbatch", ["--parsable"] + arguments)
            #expect(r.status == 0, "sbatch \(arguments): \(r.stderr)")
            return String(r.out.prefix { $0.isNumber })
        }
        let again = try sbatch(["--array=1", dir + "/failing/tasks.sbatch"])
        let join = try sbatch(["--dependency=afterok:\(again)", dir + "/failing/join.sbatch"])
        let rerun = try cluster.wait(jobs: [again, join], timeout: 240)
        #expect(rerun.allSatisfy { $0.state == "COMPLETED" && $0.exitCode == 0 }, "\(rerun)")
        #expect(try SegmentPlanTests.pictures(dir + "/out.mp4") == (try SegmentPlanTests.pictures(dir + "/whole.mp4")))
    }
}
