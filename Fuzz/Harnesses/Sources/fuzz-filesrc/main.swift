import FuzzDriver
import Foundation
import MediaGraphCodecs
import MediaGraphCore
import MediaGraphNodes

/// The file source: libavformat's demuxers behind our glue (`Demuxer`: opening, stream
/// descriptions, packets, seeking; `FileStreamPorts`; `filesrc` with its codec configuration
/// records, ADTS stripping, timestamp rebasing, trim and end rule), then the `decode` node on
/// what it delivers. libavformat and libavcodec themselves are fuzzed by OSS-Fuzz.
///
/// Input: a byte choosing the file's extension (libavformat's probe weighs it), a byte of mode
/// bits, then the file. The file is written to the harness's working directory (Fuzz/run.sh runs
/// each target in a fresh one) and read twice: by a `Demuxer` (every packet, then a seek and a few
/// more), then by a graph `filesrc` → (`decode` →) `nullsink` per stream. Mode bits: 0 seek,
/// 1 decode, 2–3 trim (none, start, end, start + duration), 4 `errors: skip`. Streams are only
/// decoded when their pictures are at most 1920×1088 (work per input stays bounded).
let registry = BuiltinNodes.makeRegistry()
let extensions = ["mp4", "mov", "mkv", "webm", "ts", "flv", "avi", "ogg", "mp3", "wav", "aac", "h264", "hevc", "ivf", "y4m", "m4a"]
let maxPackets = 2000

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFileSource(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 2, let data else { return 0 }
    let choice = data[0], mode = data[1]
    let path = "in." + extensions[Int(choice & 15)]
    let file = Data(bytes: data + 2, count: size - 2)
    // a plain write: createFile's atomic write (temporary file, fsync, rename) cost more than
    // a small input's whole run
    do { try file.write(to: URL(fileURLWithPath: path)) } catch { fatalError("cannot write \(path): \(error)") }
    defer { unlink(path) }

    guard let demuxer = try? Demuxer(path: path) else { return 0 }
    readPackets(demuxer, limit: maxPackets)
    if mode & 1 != 0 {
        // a time on the file's clock from the first byte's high bits: 0 to 1.5 s
        let target = (demuxer.container.startTime ?? 0) + Int64(choice >> 4) * 100_000
        if (try? demuxer.seek(toMicroseconds: target)) != nil { readPackets(demuxer, limit: 100) }
    }
    let ports = FileStreamPorts(path: path, streams: demuxer.streams)
    _ = ports.listing
    let streams = demuxer.streams

    var params = ["\"path\": \"\(path)\""]
    switch mode >> 2 & 3 {
    case 1: params.append("\"start\": 0.08")
    case 2: params.append("\"end\": 0.1")
    case 3: params += ["\"start\": 0.04", "\"duration\": 0.12"]
    default: break
    }
    if mode & 16 != 0 { params.append("\"errors\": \"skip\"") }
    var nodes = ["\"in\": {\"type\": \"filesrc\", \"params\": {\(params.joined(separator: ", "))}}"]
    var chains: [String] = []
    for (k, port) in ports.ports.prefix(4).enumerated() {
        let s = streams[port.streamIndex]
        if s.kind == .subtitle && mode & 2 != 0 {
            // cues through libavcodec's decoder and the subrip/webvtt encoder into a file
            nodes.append("\"out\(k)\": {\"type\": \"subtitlefile\", \"params\": {\"path\": \"out\(k).\(k % 2 == 0 ? "srt" : "vtt")\"}}")
            chains.append("[\"in.\(port.name)\", \"out\(k)\"]")
            continue
        }
        nodes.append("\"out\(k)\": {\"type\": \"nullsink\"}")
        let decodable = s.kind == .audio || (s.width > 0 && s.height > 0 && s.width * s.height <= 1920 * 1088)
        if mode & 2 != 0 && decodable {
            nodes.append("\"dec\(k)\": {\"type\": \"decode\", \"params\": {\"threads\": 1}}")
            chains.append("[\"in.\(port.name)\", \"dec\(k)\", \"out\(k)\"]")
        } else {
            chains.append("[\"in.\(port.name)\", \"out\(k)\"]")
        }
    }
    guard !chains.isEmpty else { return 0 }
    let text = "{\"nodes\": {\(nodes.joined(separator: ", "))}, \"chains\": [\(chains.joined(separator: ", "))]}"
    let spec: GraphSpec
    do { spec = try GraphFile.parse(text: text, file: "fuzz.json") } catch { fatalError("the harness's graph does not parse: \(error)\n\(text)") }
    guard let graph = try? GraphBuilder.build(spec, registry: registry) else { return 0 }
    _ = try? GraphRunner(graph: graph).run()
    return 0
}

/// Reads up to `limit` packets, going on after read errors as filesrc's `errors: skip` does
/// (a few in a row end the read).
func readPackets(_ demuxer: Demuxer, limit: Int) {
    var errors = 0
    for _ in 0..<limit {
        do {
            guard try demuxer.read() != nil else { return }
            errors = 0
        } catch {
            errors += 1
            if errors > 3 { return }
        }
    }
}

runLibFuzzer(fuzzFileSource)
