import Foundation
import Testing

/// The harness the scale-out tests stand on: a local cluster runs an array job and a join job
/// that depends on it (the shape of a split graph run), and a failed task keeps the join from
/// running. Root only (munged and slurmd run as root, as in CI).
@Suite struct LocalSlurmClusterTests {
    @Test(.enabled(if: getuid() == 0)) func arrayThenJoinAndAFailedTaskBlocksTheJoin() throws {
        let cluster = try LocalSlurmCluster()
        defer { cluster.stop() }
        let out = cluster.dir + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        func read(_ name: String) -> String? {
            FileManager.default.contents(atPath: out + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }

        let array = try cluster.sbatch(arguments: ["--array=0-2", "--output=\(out)/array-%a.log"],
                                       script: "echo $SLURM_ARRAY_TASK_ID > \(out)/part-$SLURM_ARRAY_TASK_ID")
        let join = try cluster.sbatch(arguments: ["--dependency=afterok:\(array)", "--output=\(out)/join.log"],
                                      script: "cat \(out)/part-0 \(out)/part-1 \(out)/part-2 > \(out)/joined")
        let done = try cluster.wait(jobs: [array, join])
        #expect(done.map(\.arrayTaskID) == [0, 1, 2, nil], "\(done)")
        #expect(done.allSatisfy { $0.state == "COMPLETED" && $0.exitCode == 0 }, "\(done)")
        for task in 0...2 { #expect(read("part-\(task)") == "\(task)\n") }
        #expect(read("joined") == "0\n1\n2\n")

        // Task 1 exits 3: the afterok join can never start. A default Slurm leaves it pending
        // with that reason; with kill_invalid_depend (or --kill-on-invalid-dep) it is cancelled.
        let failing = try cluster.sbatch(arguments: ["--array=0-2", "--output=\(out)/failing-%a.log"],
                                         script: "[ $SLURM_ARRAY_TASK_ID = 1 ] && exit 3; exit 0")
        let blocked = try cluster.sbatch(arguments: ["--dependency=afterok:\(failing)", "--output=\(out)/blocked.log"],
                                         script: "touch \(out)/blocked-ran")
        let after = try cluster.wait(jobs: [failing, blocked])
        #expect(after.map(\.arrayTaskID) == [0, 1, 2, nil], "\(after)")
        #expect(after.prefix(3).map(\.state) == ["COMPLETED", "FAILED", "COMPLETED"], "\(after)")
        #expect(after.prefix(3).map(\.exitCode) == [0, 3, 0], "\(after)")
        let join2 = try #require(after.last)
        #expect(["PENDING", "CANCELLED"].contains(join2.state) && join2.reason == "DependencyNeverSatisfied", "\(join2)")
        #expect(read("blocked-ran") == nil)
    }
}
