import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// The libavformat reader against ffprobe: packets, stream descriptions, seeking, selection,
/// interruption and the errors for files that are not media.
@Suite struct DemuxerTests {
    static func ffmpeg(_ args: [String]) throws {
        let r = try runTool("ffmpeg", ["-v", "error", "-y"] + args)
        #expect(r.status == 0, "ffmpeg \(args.joined(separator: " ")): \(r.stderr)")
    }

    /// H.264 with B-frames and AAC (with its priming packet) in MP4.
    static func makeMP4(_ dir: TempDir, seconds: String = "2", gop: String = "12") throws -> String {
        let path = dir.path("in.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=sample_rate=48000",
                    "-t", seconds, "-c:v", "libx264", "-bf", "3", "-g", gop, "-c:a", "aac", "-shortest", path])
        return path
    }

    @Test func packetsAreFFprobesPackets() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeMP4(dir)
        let d = try Demuxer(path: path)
        var ours: [String] = []
        while let p = try d.read() {
            var flags = (p.isKeyFrame ? "K" : "_") + (p.isDiscarded ? "D" : "_")
            if p.skipStart > 0 || p.skipEnd > 0 { flags += " skip \(p.skipStart),\(p.skipEnd)" }
            ours.append("\(p.streamIndex),\(p.pts),\(p.dts),\(p.duration),\(p.bytes.count),\(flags)")
        }
        let r = try runTool("ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts,dts,duration,size,flags:packet_side_data",
                                        "-of", "compact=p=0:nk=1", path])
        let theirs = r.stdout.split(separator: "\n").map { line -> String in
            // 0|0|-1024|512|5056|K_ or with side data: 1|…|KD|Skip Samples|1024|0|0|0
            let f = line.split(separator: "|").map(String.init)
            var s = f.prefix(6).joined(separator: ",")
            if f.count >= 9, f[6] == "Skip Samples" { s += " skip \(f[7]),\(f[8])" }
            return s
        }
        #expect(ours.count == theirs.count)
        #expect(ours == theirs, "first difference at \(ours.indices.first { $0 >= theirs.count || ours[$0] != theirs[$0] } ?? -1)")
        #expect(ours.contains { $0.hasSuffix("KD skip 1024,0") }, "the AAC priming packet is marked and its samples to skip are read")
    }

    /// Packets are libavformat's own buffers, held without a copy, and stay valid while held:
    /// every packet of the file is kept until the end, then each one's bytes hash to what
    /// ffmpeg's `-c copy -f framemd5` reports for the same packet.
    @Test func packetBytesAreHeldUncopiedAndAreFFmpegsPackets() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeMP4(dir, seconds: "1")
        let d = try Demuxer(path: path)
        var held: [DemuxedPacket] = []
        while let p = try d.read() { held.append(p) }
        #expect(!held.isEmpty && held.allSatisfy { $0.bytes.isForeign }, "every packet holds libavformat's buffer")
        var ours: [Int: [String]] = [:]
        for p in held {
            var md5 = MD5()
            p.bytes.withUnsafeBytes { raw in
                if let base = raw.bindMemory(to: UInt8.self).baseAddress { md5.update(base, count: raw.count) }
            }
            ours[p.streamIndex, default: []].append("\(p.bytes.count),\(md5.finalize())")
        }
        let r = try runTool("ffmpeg", ["-v", "error", "-i", path, "-map", "0", "-c", "copy", "-f", "framemd5", "-"])
        var theirs: [Int: [String]] = [:]
        for line in r.stdout.split(separator: "\n") where !line.hasPrefix("#") {
            // stream, dts, pts, duration, size, hash[, side data]
            let f = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard f.count >= 6, let stream = Int(f[0]) else { continue }
            theirs[stream, default: []].append("\(f[4]),\(f[5])")
        }
        #expect(ours.keys.sorted() == [0, 1])
        #expect(ours == theirs)
    }

    @Test func streamDescriptionsMatchFFprobe() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = dir.path("in.mkv")
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=176x144:rate=30000/1001", "-f", "lavfi", "-i", "sine=sample_rate=44100",
                         "-t", "0.5", "-c:v", "libx264", "-vf", "setsar=16/11", "-colorspace", "bt470bg", "-color_primaries", "bt470bg",
                         "-color_trc", "gamma28", "-color_range", "pc", "-c:a", "ac3", "-ac", "2",
                         "-metadata:s:a:0", "language=ger", "-metadata:s:a:0", "title=Kommentar", path])
        let d = try Demuxer(path: path)
        #expect(d.container.formatName == "matroska,webm")
        #expect(d.container.seeksByPresentationTime == false)
        #expect(d.streams.count == 2)
        let v = d.streams[0], a = d.streams[1]
        let fv = try probeStream(path)
        #expect(v.kind == .video && v.codec == .h264)
        #expect("\(v.width)" == fv["width"] && "\(v.height)" == fv["height"])
        #expect(v.nativePixelFormat == fv["pix_fmt"] && v.pixelFormat == .yuv420p)
        #expect(v.averageFrameRate == Rational(30000, 1001))
        #expect(v.timeBase == Rational(1, 1000))
        #expect(v.range == .full && v.matrix == .bt470bg)
        #expect(v.color.primaries == .bt470bg && v.color.transfer == .gamma28)
        #expect(v.colorNames.range == fv["color_range"] && v.colorNames.space == fv["color_space"])
        #expect(v.sampleAspect == Rational(16, 11) && fv["sample_aspect_ratio"] == "16:11")
        #expect(v.videoDelay == 2, "x264's default B-frames")
        #expect(v.extradata.first == 1, "avcC as the container stored it")
        #expect(a.kind == .audio && a.codec == .ac3)
        #expect(a.sampleRate == 44100 && a.channels == 2 && a.channelLayout == .stereo && a.channelLayoutName == "stereo")
        #expect(a.nativeSampleFormat == "fltp" && a.sampleFormat == .f32planar)
        #expect(a.language == "ger" && a.title == "Kommentar")
        #expect(a.videoFormat.rotation == 0)
        // what decoding yields carries the description on
        let vf = v.videoFormat
        #expect(vf.timeBase == Rational(1, 1000) && vf.range == .full && vf.sampleAspect == Rational(16, 11))
        #expect(a.audioFormat.tags.language == "ger")
    }

    /// Pixel formats MediaGraph has map to themselves; others to the nearest of the same
    /// layout, the native name kept (the decoder converts).
    @Test(arguments: [
        ("mjpeg", "yuvj420p", PixelFormat.yuv420p),
        ("libx265", "yuv420p10le", PixelFormat.yuv420p10),
        ("rawvideo", "nv12", PixelFormat.yuv420p),
        ("rawvideo", "yuv444p12le", PixelFormat.yuv444p10),
        ("rawvideo", "rgb24", PixelFormat.rgba),
        ("rawvideo", "gray", PixelFormat.gray),
    ])
    func pixelFormatMapping(_ codec: String, _ native: String, _ expected: PixelFormat) throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = dir.path("in.nut")
        var args = ["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25", "-frames:v", "2", "-c:v", codec, "-pix_fmt", native]
        if codec == "libx265" { args += ["-x265-params", "log-level=error"] }
        try Self.ffmpeg(args + [path])
        let v = try Demuxer(path: path).streams[0]
        #expect(v.nativePixelFormat == native)
        #expect(v.pixelFormat == expected)
        let range = try probeStream(path)["color_range"]
        #expect((v.colorNames.range ?? "unknown") == range)
        // JPEG's yuvj formats are full range even where the stream does not say so
        #expect(v.range == (native.hasPrefix("yuvj") || range == "pc" ? .full : range == "tv" ? .limited : .unspecified))
    }

    /// Seeking lands on the key frame at or before the time, in every stream.
    @Test func seekLandsOnTheKeyFrameAtOrBefore() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeMP4(dir, seconds: "4", gop: "25")
        let keys = try runTool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts,flags", "-of", "csv=p=0", path])
            .stdout.split(separator: "\n").filter { $0.hasSuffix("K_") }.compactMap { Int64($0.split(separator: ",")[0]) }
        for seconds in [0.3, 1.0, 1.5, 2.96, 3.5] {
            let d = try Demuxer(path: path)
            try d.seek(toMicroseconds: Int64(seconds * 1e6))
            var firstVideo: DemuxedPacket?
            while firstVideo == nil, let p = try d.read() { if p.streamIndex == 0 { firstVideo = p } }
            let target = Int64(seconds * 12800)
            let expected = keys.filter { $0 <= target }.max()
            #expect(firstVideo?.pts == expected && firstVideo?.isKeyFrame == true, "seek to \(seconds) s: \(String(describing: firstVideo?.pts)), key frames \(keys)")
        }
    }

    /// The key-frame seek reads through the reader it is given (filesrc's with `errors: skip`
    /// reads on past a read error): a reader that fails once and is then read on gives the same
    /// packets as the demuxer's own, and one whose failure is not caught stops the seek with it.
    @Test func keyFrameSeekReadsThroughTheGivenReader() throws {
        struct Injected: Error {}
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = dir.path("in.ts")
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "3", "-c:v", "libx264", "-g", "25", path])
        let plain = try Demuxer(path: path)
        let video = plain.streams[0]
        let expected = try plain.seek(toMicroseconds: 1_700_000, keyFrameAtOrBefore: 1_700_000, video: video)
        #expect(!expected.isEmpty && expected[0].isKeyFrame)

        let d = try Demuxer(path: path)
        var calls = 0, failures = 0
        let read: () throws -> DemuxedPacket? = {
            calls += 1
            if calls == 2 { throw Injected() }
            return try d.read()
        }
        let skipping: () throws -> DemuxedPacket? = {
            while true {
                do { return try read() } catch is Injected { failures += 1 }
            }
        }
        let packets = try d.seek(toMicroseconds: 1_700_000, keyFrameAtOrBefore: 1_700_000, video: d.streams[0], read: skipping)
        #expect(failures == 1 && calls > 2)
        #expect(packets.map(\.pts) == expected.map(\.pts))

        calls = 0
        let stopping = try Demuxer(path: path)
        #expect(throws: Injected.self) {
            try stopping.seek(toMicroseconds: 1_700_000, keyFrameAtOrBefore: 1_700_000, video: stopping.streams[0]) {
                calls += 1
                if calls == 2 { throw Injected() }
                return try stopping.read()
            }
        }
    }

    @Test func selectedStreamsOnlyAndCancel() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeMP4(dir)
        let d = try Demuxer(path: path)
        d.select([1])
        var streams = Set<Int>(), count = 0
        while let p = try d.read() { streams.insert(p.streamIndex); count += 1 }
        #expect(streams == [1] && count > 90)
        let stop = StopFlag()
        let e = try Demuxer(path: path, stop: stop)
        #expect(try e.read() != nil)
        stop.set()
        #expect(try e.read() == nil, "a set stop flag ends reading")
        let f = try Demuxer(path: path)
        f.cancel()
        #expect(try f.read() == nil)
    }

    @Test func filesThatAreNotMediaAreRefusedWithTheReason() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try writeFile(dir.path("text.mp4"), Array("hello, this is not a movie".utf8))
        try writeFile(dir.path("empty.mp4"), [])
        // an MP4 cut short while written: its moov (at the end without fast start) is missing
        try Self.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "50", "-c:v", "libx264", dir.path("whole.mp4")])
        let whole = try [UInt8](Data(contentsOf: dir.url.appendingPathComponent("whole.mp4")))
        try writeFile(dir.path("cut.mp4"), Array(whole.prefix(whole.count / 2)))
        let fifo = dir.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind, message) in [
            (dir.path("missing.mp4"), DemuxError.Kind.cannotOpen, "cannot open '\(dir.path("missing.mp4"))': No such file or directory"),
            (dir.path("text.mp4"), .notMedia, "'\(dir.path("text.mp4"))' is not a media file libavformat recognises (Invalid data found when processing input)"),
            (dir.path("empty.mp4"), .notMedia, "'\(dir.path("empty.mp4"))' is empty (0 bytes), not a media file"),
            (dir.path("cut.mp4"), .notMedia, "'\(dir.path("cut.mp4"))' is an MP4/MOV without its index (moov atom not found): cut short while it was written? (Invalid data found when processing input)"),
            (dir.url.path, .cannotOpen, "cannot open '\(dir.url.path)': it is a directory"),
            (fifo, .cannotOpen, "cannot open '\(fifo)': not a regular file (a pipe or device cannot be read as media)"),
        ] {
            do {
                _ = try Demuxer(path: path)
                Issue.record("\(path) opened")
            } catch let e as DemuxError {
                #expect(e.kind == kind)
                #expect(e.message == message)
            }
        }
    }

    /// A name that looks like a protocol is still a file name: nothing but local files opens.
    @Test func pathsAreFilesNotProtocols() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let path = try Self.makeMP4(dir)
        let colon = dir.path("concat:in.mp4")
        try FileManager.default.copyItem(atPath: path, toPath: colon)
        #expect(try Demuxer(path: colon).streams.count == 2)
        #expect(throws: DemuxError.self) { try Demuxer(path: "http://127.0.0.1:9/x.mp4") }
    }

    @Test func creationTimeParsesLibavformatsForm() throws {
        // date -u -d 2024-05-01T12:34:56Z +%s
        #expect(CreationTime.parse("2024-05-01T12:34:56.000000Z") == 1_714_566_896)
        #expect(CreationTime.parse("1970-01-01 00:00:00") == 0)
        #expect(CreationTime.parse("2000-02-29T23:59:59Z") == 951_868_799)
        #expect(CreationTime.format(1_714_566_896) == "2024-05-01T12:34:56Z")
        #expect(CreationTime.parse("yesterday") == nil)
        #expect(CreationTime.parse("2024-13-01T00:00:00Z") == nil)
    }
}
