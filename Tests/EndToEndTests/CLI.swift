import Foundation
import MediaGraphCore
import Testing

/// Runs the built `mediagraph` binary (and ffmpeg/ffprobe) as a user would.
enum CLI {
    /// The package root (tests run the CLI on Graphs/ from here).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The binary built beside these tests (so the sanitizer builds' tests run their own CLI),
    /// else the newest of release (what `make test` builds) and debug.
    static let binary: String = {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("mediagraph").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        let candidates = [root + "/.build/release/mediagraph", root + "/.build/debug/mediagraph"]
        let existing = candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }
        func mtime(_ p: String) -> Date { (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? .distantPast }
        return existing.max { mtime($0) < mtime($1) } ?? candidates[0]
    }()

    /// Seconds a hostile input may take: 5 in a release build; `make test-sanitize` runs debug
    /// builds under sanitizers, several times slower, and scales it by MEDIAGRAPH_TEST_TIME_SCALE.
    static let timeLimit = 5.0 * (Double(ProcessInfo.processInfo.environment["MEDIAGRAPH_TEST_TIME_SCALE"] ?? "") ?? 1)

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs a program to completion; `stdin` is a file to feed, if any; `environment` is added to
    /// this process's.
    @discardableResult
    static func run(_ program: String, _ args: [String], stdin: String? = nil, cwd: String? = nil,
                    environment: [String: String] = [:]) throws -> Result {
        let p = Process()
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        p.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        p.arguments = program.hasPrefix("/") ? args : [program] + args
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let outPipe = Pipe(), errPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        if let stdin { p.standardInput = FileHandle(forReadingAtPath: stdin) } else { p.standardInput = FileHandle.nullDevice }
        try p.run()
        // Both pipes drain at once (a full pipe would block the child); the group's wait orders
        // the reads before the results are used.
        let out = PipeData(), err = PipeData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { out.data = outPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { err.data = errPipe.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        p.waitUntilExit()
        group.wait()
        return Result(status: p.terminationStatus, stdout: out.data, stderr: String(decoding: err.data, as: UTF8.self))
    }

    static func mediagraph(_ args: String...) throws -> Result { try run(binary, args, cwd: root) }
    static func mediagraph(_ args: [String], stdin: String? = nil) throws -> Result { try run(binary, args, stdin: stdin, cwd: root) }

    /// Starts `mediagraph` with these arguments in the background, its output thrown away: for
    /// tests that watch a run's files or signal it.
    static func startMediagraph(_ args: String...) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// Waits (up to `timeout` seconds) until a file whose name starts with `prefix` exists in
    /// `dir` and is not empty, or process `pid` has a non-empty file in `dir` open (outputs are
    /// unnamed O_TMPFILE files until finished): the run has started writing, so its signal
    /// handler is installed.
    static func waitForOutput(in dir: String, prefix: String, pid: Int32? = nil, timeout: Double = 30) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let pid, isWriting(pid: pid, in: dir) { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            if names.contains(where: { name in
                name.hasPrefix(prefix) && ((try? FileManager.default.attributesOfItem(atPath: dir + "/" + name)[.size] as? Int) ?? 0) > 0
            }) { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Whether process `pid` holds a non-empty file in `dir` open, named or not.
    static func isWriting(pid: Int32, in dir: String) -> Bool {
        let fds = "/proc/\(pid)/fd"
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + fd),
                  target.hasPrefix(dir + "/") else { continue }
            var st = stat()
            if stat(fds + "/" + fd, &st) == 0 && st.st_size > 0 { return true }
        }
        return false
    }

    /// The directory every `tempDir()` of this test process lives in; removed when the process
    /// exits, so repeated test runs do not fill the system's temporary directory.
    static let processTempDir: String = {
        let d = NSTemporaryDirectory() + "mg-e2e-\(getpid())"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "mg-e2e-\(getpid())") }
        return d
    }()

    /// A fresh temporary directory.
    static func tempDir() -> String {
        let d = processTempDir + "/" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// Writes a graph file into `dir` and returns its path.
    static func writeGraph(_ json: String, in dir: String, name: String = "g.json") -> String {
        let path = dir + "/" + name
        #expect(FileManager.default.createFile(atPath: path, contents: json.data(using: .utf8)), "could not write \(path)")
        return path
    }

    /// ffprobe's value of one stream entry (e.g. "width", "nb_read_frames").
    static func probe(_ file: String, _ entries: String, countFrames: Bool = false) throws -> [String: String] {
        var args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=" + entries, "-of", "default=noprint_wrappers=1"]
        if countFrames { args.insert("-count_frames", at: 0) }
        let r = try run("ffprobe", args + [file])
        var out: [String: String] = [:]
        for line in r.out.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { out[String(kv[0])] = String(kv[1]) }
        }
        return out
    }
}

/// What one reader thread collected from a pipe (handed over under a lock).
final class PipeData: Sendable {
    private let stored = Lock(Data())
    var data: Data {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
