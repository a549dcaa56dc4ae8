#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Outputs that are streams, not files: standard output ("-", `/dev/stdout`, which is a link to
/// /proc/self/fd/1), a FIFO behind a link, `/dev/null`. They are written through, never replaced
/// by a file; a plain MP4, which is completed by writing in front of its media, is refused on a
/// pipe before a byte is written, and works on standard output redirected to a file.
@Suite struct StreamOutputTests {
    static let graph = #"{"nodes": {"src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 30}}, "y": {"type": "y4msink", "params": {"path": "o.y4m"}}}, "chains": [["src", "y"]]}"#
    static let mp4Graph = #"{"nodes": {"src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 30}}, "enc": {"type": "h264", "params": {"preset": "ultrafast"}}, "m": {"type": "mp4", "params": {"path": "o.mp4"}}}, "chains": [["src", "enc", "m.video"]]}"#

    func frames(_ file: String) throws -> String? {
        try CLI.probe(file, "nb_read_frames", countFrames: true)["nb_read_frames"]
    }

    func isLink(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }

    /// `/dev/stdout` into a pipe, and a link to a FIFO that another process reads: the frames
    /// arrive there, and the links stay links.
    @Test func linksToStreamsAreWrittenThrough() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(Self.graph, in: dir)
        let piped = try CLI.run("/bin/sh", ["-c", "\"$0\" run --quiet \"$1\" --set y.path=/dev/stdout | cat > \"$2\"", CLI.binary, g, dir + "/piped.y4m"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try frames(dir + "/piped.y4m") == "30")
        #expect(isLink("/dev/stdout"), "/dev/stdout is still a link")

        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.y4m", withDestinationPath: dir + "/fifo")
        // the reader gives up after 30 s, so a run that fails before opening the FIFO cannot hang the test
        let r = try CLI.run("/bin/sh", ["-c", "timeout 30 cat \"$2/fifo\" > \"$2/got.y4m\" & \"$0\" run --quiet \"$1\" --set y.path=\"$2/link.y4m\"; rc=$?; wait; exit $rc", CLI.binary, g, dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try frames(dir + "/got.y4m") == "30")
        #expect(isLink(dir + "/link.y4m"), "the link to the FIFO is still a link")
    }

    /// IVF into a pipe: its header's frame count, patched at the end in a file, stays 0 there
    /// (as ffmpeg leaves it); the stream is whole.
    @Test func ivfIntoAPipe() throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(#"{"nodes": {"src": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 30}}, "enc": {"type": "vp8"}, "i": {"type": "ivfsink", "params": {"path": "o.ivf"}}}, "chains": [["src", "enc", "i"]]}"#, in: dir)
        let r = try CLI.run("/bin/sh", ["-c", "\"$0\" run --quiet \"$1\" --set i.path=/dev/stdout | cat > \"$2\"", CLI.binary, g, dir + "/piped.ivf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try frames(dir + "/piped.ivf") == "30")
    }

    /// A plain MP4 into a pipe: exit 1 naming the fix, and nothing written into the pipe.
    @Test(arguments: ["-", "/dev/stdout"])
    func plainMP4IntoAPipeIsRefusedBeforeWriting(path: String) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(Self.mp4Graph, in: dir)
        let r = try CLI.run("/bin/sh", ["-c", "(\"$0\" run --quiet \"$1\" --set m.path=\"$2\"; echo \"exit $?\" >&2) | wc -c", CLI.binary, g, path])
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "bytes written into the pipe")
        #expect(r.stderr.contains("exit 1"), "\(r.stderr)")
        #expect(r.stderr.contains("error: node 'm' (mp4): mp4 muxer: ") && r.stderr.contains("is a pipe or a terminal, which a plain MP4 cannot be written to")
                && r.stderr.contains("set \"fragmented\": true to stream MP4"), "\(r.stderr)")
        // fragmented MP4 streams into the same pipe
        let f = try CLI.run("/bin/sh", ["-c", "\"$0\" run --quiet \"$1\" --set m.path=\"$2\" --set m.fragmented=true | cat > \"$3\"", CLI.binary, g, path, dir + "/frag.mp4"])
        #expect(f.status == 0, "\(f.stderr)")
        #expect(try frames(dir + "/frag.mp4") == "30")
    }

    /// Standard output redirected to a file takes a plain MP4, fast start (moov in front, the
    /// media copied from scratch) or not; `/dev/null` takes it too.
    @Test(arguments: [true, false])
    func plainMP4OnStandardOutputRedirectedToAFile(fastStart: Bool) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(Self.mp4Graph, in: dir)
        let out = dir + "/out.mp4"
        let r = try CLI.run("/bin/sh", ["-c", "\"$0\" run --quiet \"$1\" --set m.path=- --set m.faststart=\(fastStart) > \"$2\"", CLI.binary, g, out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try frames(out) == "30")
        let check = try CLI.run("ffmpeg", ["-v", "error", "-i", out, "-f", "null", "-"])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(check.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        func offset(of box: String) -> Int? {
            let tag = Array(box.utf8)
            return (4..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tag }
        }
        let moov = try #require(offset(of: "moov")), mdat = try #require(offset(of: "mdat"))
        #expect((moov < mdat) == fastStart, "moov at \(moov), mdat at \(mdat)")
        if fastStart {
            let play = try CLI.run(CLI.root + "/../shared/tools/browser-play", [out, "--min-frames", "30"])
            #expect(play.status == 0, "browser-play: \(play.out) \(play.stderr)")
        }
        let null = try CLI.mediagraph(["run", "--quiet", g, "--set", "m.path=/dev/null", "--set", "m.faststart=\(fastStart)"])
        #expect(null.status == 0, "\(null.stderr)")
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && st.st_mode & S_IFMT == S_IFCHR, "/dev/null is still the device")
    }
}
