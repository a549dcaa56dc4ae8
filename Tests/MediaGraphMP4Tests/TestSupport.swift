import Foundation
import MediaGraphCore
import Testing

/// A fresh directory under /tmp, removed by `remove()`.
struct TempDir {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "mp4test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program found on PATH (or by absolute path) and collects its output.
@discardableResult
func run(_ program: String, _ args: [String]) throws -> ProcessResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
    p.arguments = program.hasPrefix("/") ? args : [program] + args
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    // Read both pipes while the process runs, so a full pipe cannot block it.
    let outBox = PipeData()
    let group = DispatchGroup()
    group.enter()
    let reader = out.fileHandleForReading
    DispatchQueue.global().async { outBox.data = reader.readDataToEndOfFile(); group.leave() }
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let outData = outBox.data
    p.waitUntilExit()
    return ProcessResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                         stderr: String(decoding: errData, as: UTF8.self))
}

/// Runs ffmpeg quietly and fails the test (with its message) if it fails.
func ffmpeg(_ args: [String]) throws {
    let r = try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + args)
    if r.status != 0 { throw TestFailure("ffmpeg \(args.joined(separator: " ")) failed: \(r.stderr)") }
}

/// ffprobe's JSON for a file.
func ffprobe(_ path: String, _ args: [String]) throws -> [String: Any] {
    let r = try run("ffprobe", ["-v", "error", "-of", "json"] + args + [path])
    if r.status != 0 { throw TestFailure("ffprobe \(path) failed: \(r.stderr)") }
    return (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))) as? [String: Any] ?? [:]
}

/// Streams of a file with counted frames.
func probeStreams(_ path: String) throws -> [[String: Any]] {
    let j = try ffprobe(path, ["-count_frames", "-show_streams", "-show_entries", "stream_side_data"])
    return j["streams"] as? [[String: Any]] ?? []
}

/// Packets of the first video stream: (pts, dts, key) as ffprobe reports them.
func probeVideoPackets(_ path: String) throws -> [(pts: String, dts: String, key: Bool)] {
    let j = try ffprobe(path, ["-select_streams", "v:0", "-show_entries", "packet=pts,dts,flags"])
    return (j["packets"] as? [[String: Any]] ?? []).map {
        ("\($0["pts"] ?? "")", "\($0["dts"] ?? "")", ($0["flags"] as? String ?? "").hasPrefix("K"))
    }
}

/// `ffmpeg -v error -i FILE -f null -`: what a full decode complains about (empty when clean).
func decodeErrors(_ path: String) throws -> String {
    let r = try run("ffmpeg", ["-hide_banner", "-v", "error", "-i", path, "-f", "null", "-"])
    return r.stderr + (r.status == 0 ? "" : "exit \(r.status)")
}

/// Per-frame md5 of the decoded video (timestamps included), header comments dropped.
func frameMD5(_ path: String, _ extra: [String] = []) throws -> [String] {
    let r = try run("ffmpeg", ["-hide_banner", "-v", "error", "-i", path] + extra + ["-map", "0:v:0", "-f", "framemd5", "-"])
    if r.status != 0 { throw TestFailure("framemd5 of \(path) failed: \(r.stderr)") }
    return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

/// Names of the files in a directory.
func listing(_ dir: String) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] }

/// The top-level box types of an MP4 file, in order.
func topLevelBoxes(_ path: String) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var out: [String] = []
    var i = 0
    while i + 8 <= data.count {
        var size = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
        let type = String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self)
        if size == 1, i + 16 <= data.count {
            size = (0..<8).reduce(0) { $0 << 8 | Int(data[i + 8 + $1]) }
        } else if size == 0 {
            size = data.count - i
        }
        out.append(type)
        if size < 8 { break }
        i += size
    }
    return out
}

func contains(_ path: String, fourCC: String) throws -> Bool {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.range(of: Data(fourCC.utf8)) != nil
}

/// ../shared/tools/browser-play's JSON report (../shared lies beside the checkout). A missing
/// tool is a test failure, not a silent skip: Chromium is one of the muxer's references.
func browserPlay(_ path: String, minFrames: Int) throws -> [String: Any]? {
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let tool = checkout.appendingPathComponent("../shared/tools/browser-play").standardizedFileURL.path
    guard fileExists(tool) else {
        Issue.record("browser-play not found at \(tool): ../shared must lie beside the checkout")
        return nil
    }
    let r = try run(tool, [path, "--min-frames", "\(minFrames)"])
    let line = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
    var j = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    j["exitStatus"] = Int(r.status)
    return j
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func intValue(_ any: Any?) -> Int? {
    if let i = any as? Int { return i }
    if let s = any as? String { return Int(s) }
    if let d = any as? Double { return Int(d) }
    return nil
}

func doubleValue(_ any: Any?) -> Double? {
    if let d = any as? Double { return d }
    if let s = any as? String { return Double(s) }
    if let i = any as? Int { return Double(i) }
    return nil
}

/// The bytes of the first box of a type found anywhere in the file (size and type included).
func firstBox(_ path: String, _ fourCC: String) throws -> [UInt8] {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let key = Array(fourCC.utf8)
    var i = 4
    while i + 4 <= data.count {
        if Array(data[i..<(i + 4)]) == key {
            let size = Int(data[i - 4]) << 24 | Int(data[i - 3]) << 16 | Int(data[i - 2]) << 8 | Int(data[i - 1])
            if size >= 8 && i - 4 + size <= data.count { return Array(data[(i - 4)..<(i - 4 + size)]) }
        }
        i += 1
    }
    return []
}

/// What one reader thread collected from a pipe (handed over under a lock).
final class PipeData: Sendable {
    private let stored = Lock(Data())
    var data: Data {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
