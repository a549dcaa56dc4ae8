import Foundation
import Testing

/// Inputs `make fuzz` found that crashed the command (README, "Fuzzing and sanitizers"), each
/// kept with what must happen now.
@Suite struct FuzzFindingsEndToEndTests {
    /// fuzz-filesrc: a Y4M file through `filesrc` into `decode` crashed `mediagraph` (SIGSEGV: the
    /// decoder's frame pool was released twice when libavcodec's rawvideo decoder refused to
    /// open), then was refused at validation ("Invalid pixel format"). Now the decoder is given
    /// the pixel format the container states and the frame decodes: its bytes are the file's.
    /// The fuzzer's input was the committed Y4M seed; this is the same file made small.
    @Test func y4mThroughFileSourceAndDecodeDecodes() throws {
        let dir = NSTemporaryDirectory() + "mg-fuzz-finding-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // one 2×2 4:2:0 frame: 4 luma bytes, 1 + 1 chroma bytes
        let pixels: [UInt8] = [16, 32, 64, 128, 100, 200]
        let y4m = Array("YUV4MPEG2 W2 H2 F25:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + pixels
        try Data(y4m).write(to: URL(fileURLWithPath: dir + "/in.y4m"))
        let graph = """
            {"nodes": {"in": {"type": "filesrc", "params": {"path": "in.y4m"}}, "dec": {"type": "decode"},
                       "out": {"type": "rawsink", "params": {"path": "out.raw"}}},
             "chains": [["in.video", "dec", "out"]]}
            """
        try graph.write(toFile: dir + "/g.json", atomically: true, encoding: .utf8)
        for command in ["validate", "run"] {
            let r = try CLI.run(CLI.binary, [command, dir + "/g.json"], cwd: dir)
            #expect(r.status == 0, "\(command): exit \(r.status), stderr: \(r.stderr)")
        }
        #expect([UInt8]((try? Data(contentsOf: URL(fileURLWithPath: dir + "/out.raw"))) ?? Data()) == pixels)
    }
}
