import Foundation
import Testing

/// `flip` against ffmpeg's `hflip`, `vflip` and `hflip,vflip`: the frames of testsrc2 in every
/// pixel format, at an even and an odd size, are byte-identical to ffmpeg's. On clips with a
/// display rotation (90, 270) or a mirroring matrix, the picture flips as shown, as ffmpeg's
/// flips after its autorotate (frames compared upright), and the display rotation is kept.
@Suite struct FlipTests {
    static let directions = ["horizontal": "hflip", "vertical": "vflip", "both": "hflip,vflip"]

    /// nil when the files hold the same bytes; otherwise what differs.
    /// Three frames of testsrc2 as raw `format` in dir/in.raw, and the rawsrc node ("src") that
    /// reads them. testsrc2 makes even sizes only: an odd one is cut from it (in 4:4:4, so exactly).
    static func rawClip(format: String, width: Int, height: Int, in dir: String) throws -> String {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=66x38:rate=25", "-frames:v", "3",
                                       "-vf", "format=yuv444p,crop=\(width):\(height):0:0", "-pix_fmt", format, "-f", "rawvideo", dir + "/in.raw"])
        #expect(r.status == 0, "\(r.stderr)")
        return #""src": { "type": "rawsrc", "params": { "path": "in.raw", "width": \#(width), "height": \#(height), "format": "\#(format)" } }"#
    }

    static func difference(_ ours: String, _ theirs: String) -> String? {
        let a = [UInt8](FileManager.default.contents(atPath: ours) ?? Data())
        let b = [UInt8](FileManager.default.contents(atPath: theirs) ?? Data())
        if a.isEmpty || a.count != b.count { return "\(a.count) bytes, ffmpeg's \(b.count)" }
        let d = largestDifference(a, b)
        return d == 0 ? nil : "largest byte difference \(d)"
    }

    /// plain.mp4 (96x64 H.264 of testsrc2), and the same stream remuxed with a display rotation
    /// of 90 and 270 (what a phone writes) and with a matrix that mirrors.
    static func rotatedSources(in dir: String) throws -> [String] {
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x64:rate=25:duration=0.2", "-c:v", "libx264",
                               "-pix_fmt", "yuv420p", dir + "/plain.mp4"])
        for r in [90, 270] {
            try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=\(r)", dir + "/r\(r).mp4"])
        }
        let plain = [UInt8](FileManager.default.contents(atPath: dir + "/plain.mp4") ?? Data())
        let o = try #require(MirroredMatrixTests.matrixOffset(plain))
        #expect(FileManager.default.createFile(atPath: dir + "/mirror.mp4", contents: Data(MirroredMatrixTests.withMatrix(plain, at: o, [-1, 0, 0, 1]))))
        return ["plain", "r90", "r270", "mirror"]
    }

    @Test(arguments: ["yuv420p", "yuv422p", "yuv444p", "gray", "rgba", "bgra", "yuv420p10le"])
    func everyDirectionIsFfmpegs(format: String) throws {
        for (width, height) in [(66, 38), (65, 37)] {
            let dir = CLI.tempDir()
            var nodes = [try FlipTests.rawClip(format: format, width: width, height: height, in: dir)]
            var chains: [String] = []
            for d in Self.directions.keys {
                nodes.append(#""f-\#(d)": { "type": "flip", "params": { "direction": "\#(d)" } }, "o-\#(d)": { "type": "rawsink", "params": { "path": "\#(d).raw" } }"#)
                chains.append(#"["src", "f-\#(d)", "o-\#(d)"]"#)
            }
            let g = CLI.writeGraph(#"{ "nodes": { \#(nodes.joined(separator: ", ")) }, "chains": [\#(chains.joined(separator: ", "))] }"#, in: dir)
            let r = try CLI.mediagraph("run", "-q", g)
            #expect(r.status == 0, "\(r.stderr)")
            for (d, filter) in Self.directions {
                try CLI.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", format, "-s", "\(width)x\(height)", "-i", dir + "/in.raw",
                                       "-vf", filter, "-f", "rawvideo", dir + "/\(d)-theirs.raw"])
                let problem = Self.difference(dir + "/\(d).raw", dir + "/\(d)-theirs.raw")
                #expect(problem == nil, "\(format) \(width)x\(height) \(d): \(problem ?? "") against ffmpeg's \(filter)")
            }
        }
    }

    @Test func theFlipIsWhatThePictureShows() throws {
        let dir = CLI.tempDir()
        for source in try Self.rotatedSources(in: dir) {
            for (d, filter) in Self.directions {
                let name = "\(source)-\(d)"
                let g = CLI.writeGraph("""
                { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(source).mp4" } }, "f": { "type": "flip", "params": { "direction": "\(d)" } },
                             "out": { "type": "y4msink", "params": { "path": "\(name).y4m" } },
                             "enc": { "type": "h264", "params": { "preset": "ultrafast" } }, "mux": { "type": "mp4", "params": { "path": "\(name).mp4" } } },
                  "chains": [["in.video", "f", "out"], ["f", "enc", "mux.video"]] }
                """, in: dir, name: name + ".json")
                let r = try CLI.mediagraph("run", "-q", g)
                #expect(r.status == 0, "\(r.stderr)")
                // y4m holds the frames upright; both decoded by ffmpeg to the same raw layout
                try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/\(name).y4m", "-f", "rawvideo", "-pix_fmt", "yuv420p", dir + "/\(name).raw"])
                try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/\(source).mp4", "-vf", filter, "-f", "rawvideo", "-pix_fmt", "yuv420p",
                                       dir + "/\(name)-theirs.raw"])
                let problem = Self.difference(dir + "/\(name).raw", dir + "/\(name)-theirs.raw")
                #expect(problem == nil, "\(name): \(problem ?? "") against ffmpeg's autorotate + \(filter)")
                // the MP4 keeps the source's display rotation: a player turns it as before
                let matrix = { (f: String) in
                    try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream_side_data=displaymatrix,rotation", "-of", "csv=p=0", f]).out
                }
                #expect(try matrix(dir + "/\(name).mp4") == matrix(dir + "/\(source).mp4"), "\(name)")
            }
        }
    }
}
