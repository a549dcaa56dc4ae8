import Foundation
import Testing

/// `rotate` with given degrees turns the picture as shown, as ffmpeg's `transpose` does after its
/// autorotate: on a plain clip, on one with a display rotation (kept, so a player turns it as
/// before) and on one whose matrix mirrors. The frames (y4m, which shows them upright) are
/// identical to ffmpeg's. Before, the turn was added to the display rotation, so players turned
/// the picture straight back (QA: "rotate has no visible effect"), and a half turn, which keeps
/// the format, was run in place and mixed up frames.
@Suite struct RotateGivenDegreesTests {
    @Test func theTurnIsWhatThePictureShows() throws {
        let dir = CLI.tempDir()
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:duration=0.2", "-c:v", "libx264",
                               "-pix_fmt", "yuv420p", dir + "/plain.mp4"])
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", dir + "/r90.mp4"])
        let plain = [UInt8](FileManager.default.contents(atPath: dir + "/plain.mp4") ?? Data())
        let o = try #require(MirroredMatrixTests.matrixOffset(plain))
        #expect(FileManager.default.createFile(atPath: dir + "/mirror.mp4", contents: Data(MirroredMatrixTests.withMatrix(plain, at: o, [-1, 0, 0, 1]))))
        let transpose = [90: "transpose=clock", 180: "hflip,vflip", 270: "transpose=cclock"]
        for source in ["plain", "r90", "mirror"] {
            for degrees in [90, 180, 270] {
                let name = "\(source)-\(degrees)"
                let g = CLI.writeGraph("""
                { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(source).mp4" } }, "rot": { "type": "rotate", "params": { "degrees": "\(degrees)" } },
                             "out": { "type": "y4msink", "params": { "path": "\(name).y4m" } },
                             "enc": { "type": "h264", "params": { "preset": "ultrafast" } }, "mux": { "type": "mp4", "params": { "path": "\(name).mp4" } } },
                  "chains": [["in.video", "rot", "out"], ["rot", "enc", "mux.video"]] }
                """, in: dir, name: name + ".json")
                let r = try CLI.mediagraph("run", "-q", g)
                #expect(r.status == 0, "\(r.stderr)")
                try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/\(source).mp4", "-vf", transpose[degrees]!, "-f", "yuv4mpegpipe", dir + "/\(name)-theirs.y4m"])
                let psnr = try UprightInputTests.minimumPSNR(dir + "/\(name).y4m", dir + "/\(name)-theirs.y4m")
                #expect(psnr == .infinity, "\(name): \(psnr) dB against ffmpeg's autorotate + \(transpose[degrees]!)")
                // the MP4 keeps the source's display rotation: a player turns it as before
                let rotation = { (f: String) in
                    try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream_side_data=rotation", "-of", "csv=p=0", f]).out
                }
                #expect(try rotation(dir + "/\(name).mp4") == rotation(dir + "/\(source).mp4"), "\(name)")
            }
        }
    }
}
