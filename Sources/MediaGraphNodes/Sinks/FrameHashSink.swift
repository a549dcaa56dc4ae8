import MediaGraphCore
import MediaGraphCodecs

/// `framehash`: one line per buffer — index, pts, size, MD5 — to a file or stdout. For raw frames
/// the hash covers the packed planes, so it equals `ffmpeg -f framemd5` on rawvideo.
public final class FrameHashSink: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "framehash",
        doc: "Writes one line per frame: index, pts, size in bytes and MD5 of the packed planes (or packet bytes).",
        category: .sink,
        inputs: [PortSpec("in", .any)],
        params: [pathParam.spec, timesParam.spec])
    static let pathParam = Param<String?>.path("path", role: .output, default: "-", doc: "output file, or \"-\" for standard output")
    static let timesParam = Param<Bool>("times", default: false,
                                        doc: "also write each buffer's duration and time base: index, pts, duration, time base, size, MD5")

    let path: String
    let times: Bool
    var file: OutputFile?
    var index = 0

    public init(setup: NodeSetup) throws {
        path = setup.params[Self.pathParam] ?? "-"
        times = setup.params[Self.timesParam]
    }
    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    public func start() throws {
        file = try OutputFile(path: path)
        try file!.write(times ? "#index, pts, duration, time base, size, md5\n" : "#index, pts, size, md5\n")
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        var md5 = MD5()
        var size = 0
        if let planes = buffer.planes {
            for p in 0..<planes.planeCount {
                let rowBytes = planes.rowBytes(p)
                for y in 0..<planes.planeSize(p).height { md5.update(planes.data(p) + y * planes.stride(p), count: rowBytes) }
                size += rowBytes * planes.planeSize(p).height
            }
        } else {
            md5.update(buffer.bytes)
            size = buffer.bytes.count
        }
        let time = times ? "\(buffer.pts), \(buffer.duration), \(buffer.timeBase)" : "\(buffer.pts)"
        try file!.write("\(index), \(time), \(size), \(md5.finalize())\n")
        index += 1
    }

    public func finish(output: NodeOutput) throws { try file?.commit() }
    public func abort() { file?.discard() }
}
