import CAVCodec
import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// One line of a framemd5 listing: presentation time (in the listing's time base), size, MD5.
struct FrameHash: Equatable, CustomStringConvertible {
    var pts: Int64
    var size: Int
    var md5: String
    var description: String { "pts \(pts) size \(size) md5 \(md5)" }
}

/// MD5 of bytes, hex (libavutil's, as ffmpeg's framemd5 uses).
final class MD5Hasher {
    private var context: OpaquePointer?
    init() { context = av_md5_alloc(); av_md5_init(context) }
    deinit { av_free(UnsafeMutableRawPointer(context)) }
    func update(_ p: UnsafeRawPointer, _ n: Int) { av_md5_update(context, p.assumingMemoryBound(to: UInt8.self), n) }
    func hex() -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_final(context, &digest)
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// The framemd5 line of a decoded frame: its packed planes, as ffmpeg's rawvideo output holds them.
func frameHash(_ frame: SampleBuffer) -> FrameHash {
    let planes = frame.planes!
    let md5 = MD5Hasher()
    var size = 0
    for p in 0..<planes.planeCount {
        let bytes = planes.rowBytes(p)
        for y in 0..<planes.planeSize(p).height { md5.update(planes.data(p) + y * planes.stride(p), bytes) }
        size += bytes * planes.planeSize(p).height
    }
    return FrameHash(pts: frame.pts, size: size, md5: md5.hex())
}

/// The MD5 of raw bytes.
func bytesHash(_ bytes: [UInt8]) -> String {
    let md5 = MD5Hasher()
    bytes.withUnsafeBytes { md5.update($0.baseAddress!, $0.count) }
    return md5.hex()
}

/// ffmpeg's framemd5 of the first video stream of a file, decoded by ffmpeg itself. The
/// comparison is honest about time: frames pass through as decoded (`-fps_mode passthrough`: no
/// frame duplicated or dropped to fit a nominal rate) and keep the stream's own time base
/// (`-enc_time_base -1`), so the pts are ffmpeg's decoded timestamps, exactly — the same ticks
/// our decoder reports.
func ffmpegFrameHashes(_ path: String, filters: [String] = [], pixelFormat: String? = nil) throws -> (timeBase: String, frames: [FrameHash]) {
    var args = ["-v", "error", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-enc_time_base", "-1"]
    if !filters.isEmpty { args += ["-vf", filters.joined(separator: ",")] }
    if let pixelFormat { args += ["-pix_fmt", pixelFormat] }
    let r = try runTool("ffmpeg", args + ["-f", "framemd5", "-"])
    guard r.status == 0 else { throw TestDemuxer.Failure(description: "ffmpeg failed on \(path): \(r.stderr)") }
    var tb = ""
    var frames: [FrameHash] = []
    for line in r.stdout.split(separator: "\n") {
        if line.hasPrefix("#tb 0:") { tb = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
        if line.hasPrefix("#") { continue }
        let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard f.count == 6, let pts = Int64(f[2]), let size = Int(f[4]) else { continue }
        frames.append(FrameHash(pts: pts, size: size, md5: f[5]))
    }
    return (tb, frames)
}

/// Compares two framemd5 listings; records the first difference only (listings are long).
func expectSameHashes(_ ours: [FrameHash], _ theirs: [FrameHash], _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(ours.count == theirs.count, "\(what): \(ours.count) frames decoded, ffmpeg \(theirs.count)", sourceLocation: sourceLocation)
    for (i, (a, b)) in zip(ours, theirs).enumerated() where a != b {
        Issue.record("\(what): frame \(i) is \(a), ffmpeg's is \(b)", sourceLocation: sourceLocation)
        return
    }
}

/// Decodes every packet of a stream, passing each frame to `body`.
func decodeVideo(_ stream: TestDemuxer.Stream, threads: Int = 2, output: VideoFormat? = nil,
                 _ body: (consuming SampleBuffer, VideoDecoder) throws -> Void) throws -> VideoDecoder {
    let decoder = try VideoDecoder(input: stream.encodedVideo!, output: output, threads: threads)
    for p in stream.packets {
        try decoder.send(p)
        while let f = try decoder.receive() { try body(consume f, decoder) }
    }
    try decoder.sendEndOfStream()
    while let f = try decoder.receive() { try body(consume f, decoder) }
    return decoder
}

/// Makes a test input with ffmpeg in `dir`; returns its path.
func makeMedia(_ dir: TempDir, _ name: String, _ args: [String]) throws -> String {
    let path = dir.path(name)
    let r = try runTool("ffmpeg", ["-v", "error", "-y"] + args + [path])
    guard r.status == 0 else { throw TestDemuxer.Failure(description: "ffmpeg could not make \(name): \(r.stderr)") }
    return path
}
