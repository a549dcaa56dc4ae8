import Foundation
import MediaGraphCore
import Testing

/// Runs the built `mediagraph` binary, ffmpeg and cc as a user would, and finds built plugins.
enum Tool {
    /// The package root.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `file` built beside these tests (so the sanitizer builds' tests use their own), else the
    /// newest of .build/release and .build/debug that has it.
    static func built(_ file: String) -> String? {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent(file).path
        if FileManager.default.fileExists(atPath: beside) { return beside }
        let candidates = [root + "/.build/release/" + file, root + "/.build/debug/" + file]
        func mtime(_ p: String) -> Date { (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? .distantPast }
        return candidates.filter { FileManager.default.fileExists(atPath: $0) }.max { mtime($0) < mtime($1) }
    }

    static var mediagraphBinary: String { built("mediagraph") ?? root + "/.build/release/mediagraph" }
    /// The example plugin SwiftPM builds (`swift build` builds the dynamic library product).
    static var examplePlugin: String? { built("libExampleFilters.so") }

    /// Seconds a hostile input may take: 5 in a release build; `make test-sanitize` runs debug
    /// builds under sanitizers, several times slower, and scales it by MEDIAGRAPH_TEST_TIME_SCALE.
    static let timeLimit = 5.0 * (Double(ProcessInfo.processInfo.environment["MEDIAGRAPH_TEST_TIME_SCALE"] ?? "") ?? 1)

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    @discardableResult
    static func run(_ program: String, _ args: [String], cwd: String? = nil, env: [String: String] = [:]) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        p.arguments = program.hasPrefix("/") ? args : [program] + args
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "MEDIAGRAPH_PLUGIN_PATH")
        for (k, v) in env { environment[k] = v }
        p.environment = environment
        let outPipe = Pipe(), errPipe = Pipe()
        p.standardOutput = outPipe
        p.standardError = errPipe
        p.standardInput = FileHandle.nullDevice
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

    static func mediagraph(_ args: [String], cwd: String? = nil, env: [String: String] = [:]) throws -> Result {
        try run(mediagraphBinary, args, cwd: cwd ?? root, env: env)
    }

    /// A fresh temporary directory.
    static func tempDir() -> String {
        let d = NSTemporaryDirectory() + "mg-plugins-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    static func write(_ text: String, to path: String) {
        #expect(FileManager.default.createFile(atPath: path, contents: text.data(using: .utf8)), "could not write \(path)")
    }

    static func read(_ path: String) -> [UInt8] {
        (FileManager.default.contents(atPath: path)).map { [UInt8]($0) } ?? []
    }

    /// Raw frames from ffmpeg's testsrc2 (an independent source of test pictures).
    static func testFrames(_ dir: String, width: Int, height: Int, format: String, frames: Int) throws -> String {
        let path = "\(dir)/in-\(width)x\(height).\(format)"
        let r = try run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=25",
                                   "-frames:v", "\(frames)", "-pix_fmt", format, "-f", "rawvideo", path])
        #expect(r.status == 0, "ffmpeg: \(r.stderr)")
        return path
    }

    /// A graph: rawsrc → the given filter nodes → rawsink.
    static func chainGraph(input: String, width: Int, height: Int, format: String, filters: [(type: String, params: String)],
                           output: String, plugins: [String] = []) -> String {
        var nodes = "\"src\": {\"type\": \"rawsrc\", \"params\": {\"path\": \"\(input)\", \"width\": \(width), \"height\": \(height), \"format\": \"\(format)\", \"rate\": \"25\"}},\n"
        var chain = ["\"src\""]
        for (k, f) in filters.enumerated() {
            nodes += "\"f\(k)\": {\"type\": \"\(f.type)\", \"params\": \(f.params)},\n"
            chain.append("\"f\(k)\"")
        }
        nodes += "\"out\": {\"type\": \"rawsink\", \"params\": {\"path\": \"\(output)\"}}"
        chain.append("\"out\"")
        let pl = plugins.isEmpty ? "" : "\"plugins\": [" + plugins.map { "\"\($0)\"" }.joined(separator: ", ") + "],\n"
        return "{\(pl)\"nodes\": {\(nodes)}, \"chains\": [[\(chain.joined(separator: ", "))]]}"
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
