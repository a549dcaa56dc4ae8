import Foundation
import Testing

/// Inputs `make fuzz` found that crashed the command (README, "Fuzzing and sanitizers"), each
/// kept with what must happen now.
@Suite struct FuzzFindingsEndToEndTests {
    /// fuzz-filesrc: a Y4M file through `filesrc` into `decode` crashed `mediagraph` (SIGSEGV: the
    /// decoder's frame pool was released twice when libavcodec's rawvideo decoder refused to
    /// open). Now validation refuses the graph (exit 2) naming the node. The fuzzer's input was the
    /// committed Y4M seed; this is the same file made small.
    @Test func y4mThroughFileSourceAndDecodeIsAnError() throws {
        let dir = NSTemporaryDirectory() + "mg-fuzz-finding-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // one 2×2 4:2:0 frame: 4 luma bytes, 1 + 1 chroma bytes
        let y4m = Array("YUV4MPEG2 W2 H2 F25:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + [16, 32, 64, 128, 128, 128]
        try Data(y4m).write(to: URL(fileURLWithPath: dir + "/in.y4m"))
        let graph = """
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.y4m"}}, "dec": {"type": "decode"}, "out": {"type": "nullsink"}},
             "chains": [["in.video", "dec", "out"]]}
            """
        try graph.write(toFile: dir + "/g.json", atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let r = try CLI.run(CLI.binary, [command, dir + "/g.json"])
            #expect(r.status == 2, "\(command): exit \(r.status), stderr: \(r.stderr)")
            #expect(r.stderr.contains("g.json:1:85: error: node 'dec' (decode): rawvideo decoder: the rawvideo decoder refused to open: Invalid pixel format. (Invalid argument)"), "\(command): \(r.stderr)")
        }
    }
}
