import ArgumentParser
import Foundation
import MediaGraphCore
#if canImport(Glibc)
import Glibc
#endif

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Validate and run a graph.",
        discussion: "Ctrl-C stops the sources, drains what is in flight and finalizes the outputs (exit 130); a second Ctrl-C exits at once. SIGTERM and SIGHUP do the same (exit 143 and 129).")

    @OptionGroup var options: GraphOptions
    @Flag(name: .shortAndLong, help: "No progress line, notes or closing summary; warnings and errors still print.") var quiet = false
    @Flag(help: "Print a per-node table of buffers, each node's own busy time (not the nodes it calls or its waits), queue waits, and pool statistics.") var stats = false
    @Option(help: "Buffers each queue between threads holds.") var queueCapacity = 4

    func run() throws {
        let stop = InterruptHandler.stopFlag()
        let graph = options.load(stop: stop)
        try GraphExecution.run(graph, stop: stop, quiet: quiet, stats: stats, queueCapacity: queueCapacity)
    }
}

/// Runs a validated graph as `run` does: signals, progress line, notes, warnings, the stats
/// table and the exit code. Shared with `run-segment` and `join`, which run graphs of a plan.
enum GraphExecution {
    static func run(_ graph: ValidatedGraph, stop: StopFlag, quiet: Bool, stats: Bool = false, queueCapacity: Int = 4) throws {
        if !quiet { for n in graph.notes { Console.error("note: " + n) } }
        var runOptions = GraphRunner.Options()
        runOptions.queueCapacity = max(1, queueCapacity)
        let runner = GraphRunner(graph: graph, stop: stop, options: runOptions)

        InterruptHandler.install()
        signal(SIGPIPE, SIG_IGN)
        // past a file size limit (`ulimit -f`) a write fails with EFBIG, which the output reports
        // and cleans up after, instead of the signal killing the process and leaving partial files
        signal(SIGXFSZ, SIG_IGN)

        let start = Date()
        let progress = (!quiet && isatty(2) != 0) ? ProgressLine(runner: runner, start: start) : nil
        progress?.begin()
        var failure: Error?
        do { try runner.run() } catch { failure = error }
        progress?.end()
        let elapsed = Date().timeIntervalSince(start)
        if !quiet { for n in runner.runNotes { Console.error("note: " + n) } }
        for w in runner.runWarnings { Console.error("warning: " + w) }
        if stats { Console.error(StatsTable.render(runner.statistics, elapsed: elapsed)) }
        if let failure {
            Console.error("error: \(failure)")
            throw ExitCode(1)
        }
        if stop.isSet {
            Console.error("stopped by \(InterruptHandler.stopCause): outputs finalized")
            throw ExitCode(InterruptHandler.exitCode)
        }
        if !quiet {
            if let frames = runner.framesDelivered {
                Console.error(String(format: "done: %d frames in %.2f s (%.1f fps)", frames, elapsed, Double(frames) / max(elapsed, 1e-9)))
            } else {
                Console.error(String(format: "done in %.2f s", elapsed))
            }
        }
    }
}

/// The progress line on a terminal: frames, fps, elapsed and ETA when the total is known. Drawn
/// by a timer on another thread, which reads only the runner's atomic progress count.
final class ProgressLine {
    let runner: GraphRunner
    let start: Date
    private var timer: DispatchSourceTimer?
    /// Signalled by the timer's cancel handler, which runs after any draw in progress.
    private let stopped = DispatchSemaphore(value: 0)

    init(runner: GraphRunner, start: Date) {
        self.runner = runner
        self.start = start
    }

    func begin() {
        let t = DispatchSource.makeTimerSource(queue: .global())
        t.schedule(deadline: .now() + 0.5, repeating: 0.5)
        let runner = runner, start = start
        t.setEventHandler { ProgressLine.draw(runner.progress, start: start) }
        let stopped = stopped
        t.setCancelHandler { stopped.signal() }
        t.resume()
        timer = t
    }

    static func draw(_ progress: (done: Int, total: Int?), start: Date) {
        let (done, total) = progress
        let elapsed = Date().timeIntervalSince(start)
        let fps = Double(done) / max(elapsed, 1e-9)
        var line = String(format: "\rframe %d", done)
        if let total { line += "/\(total)" }
        line += String(format: "  %.1f fps  %.1f s", fps, elapsed)
        if let total, fps > 0 { line += String(format: "  ETA %.1f s", Double(max(0, total - done)) / fps) }
        FileHandle.standardError.write(Data((line + "   ").utf8))
    }

    /// Stops the timer and waits out a draw in progress, then clears the line.
    func end() {
        if let timer {
            // a draw may be under way: clear the line only after it
            timer.cancel()
            stopped.wait()
        }
        FileHandle.standardError.write(Data("\r\u{1b}[K".utf8))
    }
}

enum StatsTable {
    static func render(_ rows: [NodeStatistics], elapsed: Double) -> String {
        var out = "node                      type          thread   in       out      busy ms   wait-in ms  queue-full ms\n"
        for r in rows {
            out += r.id.padded(25) + " " + r.type.padded(13) + " " + (r.ownThread ? "own" : "inline").padded(8) + " "
            out += String(r.buffersIn).padded(8) + " " + String(r.buffersOut).padded(8) + " "
            out += String(format: "%9.1f  %10.1f  %13.1f", Double(r.busyNanos) / 1e6, Double(r.inputWaitNanos) / 1e6, Double(r.queueFullNanos) / 1e6) + "\n"
        }
        let ps = PoolStatistics.shared
        out += "pools: \(ps.allocationCount) frame blocks allocated (\(ps.allocatedByteCount / 1024) KiB), \(ps.copyCount) frames copied, \(ps.inPlaceCount) written in place\n"
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        out += "peak memory: \(usage.ru_maxrss) KiB\n"
        out += String(format: "elapsed: %.3f s", elapsed)
        return out
    }
}

extension String {
    func padded(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
