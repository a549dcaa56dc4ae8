import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

/// Decoded frames against ffmpeg's own decode of the same file: same frames, same timestamps,
/// same bytes (framemd5).
@Suite struct VideoDecoderTests {
    static let source = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "2"]

    func check(_ path: String, _ what: String, threads: Int = 2, pixelFormat: String? = nil,
               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> VideoDecoder {
        let stream = try TestDemuxer.read(path, video: true)
        var ours: [FrameHash] = []
        let decoder = try decodeVideo(stream, threads: threads) { frame, _ in ours.append(frameHash(frame)) }
        let theirs = try ffmpegFrameHashes(path, pixelFormat: pixelFormat)
        #expect(!ours.isEmpty, "\(what): no frames", sourceLocation: sourceLocation)
        #expect(theirs.timeBase == "\(stream.encodedVideo!.timeBase)", "\(what): time base", sourceLocation: sourceLocation)
        expectSameHashes(ours, theirs.frames, what, sourceLocation: sourceLocation)
        return decoder
    }

    @Test func h264WithBFramesInMP4() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "bf.mp4", Self.source + ["-c:v", "libx264", "-bf", "3", "-g", "50", "-pix_fmt", "yuv420p"])
        let d = try check(path, "h264 mp4")
        #expect(d.decodesIntoPool)
        #expect(d.statistics.framesOut == 50)
        #expect(d.statistics.zeroCopyFrames == 50, "every frame decoded into pooled memory: \(d.statistics)")
    }

    @Test func hevcMain10InMP4() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "hevc10.mp4", Self.source + ["-c:v", "libx265", "-x265-params", "log-level=error:bframes=3",
                                                                  "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1"])
        let d = try check(path, "hevc main 10", pixelFormat: "yuv420p10le")
        #expect(d.output.pixelFormat == .yuv420p10)
        #expect(d.statistics.zeroCopyFrames == d.statistics.framesOut && d.statistics.framesOut == 50)
    }

    @Test func vp9InWebM() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "vp9.webm", Self.source + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"])
        let d = try check(path, "vp9 webm")
        #expect(d.statistics.framesOut == 50)
    }

    @Test func vp9Profile2() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "vp9p2.webm", Self.source + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8",
                                                                  "-b:v", "300k", "-pix_fmt", "yuv420p10le"])
        let d = try check(path, "vp9 profile 2", pixelFormat: "yuv420p10le")
        #expect(d.output.pixelFormat == .yuv420p10)
    }

    @Test func vp8InWebM() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "vp8.webm", Self.source + ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k",
                                                                "-auto-alt-ref", "1", "-lag-in-frames", "10"])
        _ = try check(path, "vp8 webm")
    }

    @Test func av1() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "av1.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "1",
                                                 "-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-b:v", "100k"])
        let d = try check(path, "av1")
        // libdav1d decodes into its own pictures: one copy each, counted
        #expect(d.decoderName == "libdav1d")
        #expect(d.statistics.copiedFrames == d.statistics.framesOut)
    }

    @Test func mpeg4PartTwoInAVI() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "mpeg4.avi", Self.source + ["-c:v", "mpeg4", "-bf", "2", "-q:v", "5"])
        _ = try check(path, "mpeg4 avi")
    }

    @Test func mjpegInAVI() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "mjpeg.avi", Self.source + ["-c:v", "mjpeg", "-q:v", "5", "-pix_fmt", "yuvj422p"])
        let d = try check(path, "mjpeg avi")
        // yuvj422p is yuv422p in full range: decoded in place, no conversion
        #expect(d.output.pixelFormat == .yuv422p && d.output.range == .full)
        #expect(d.statistics.zeroCopyFrames == d.statistics.framesOut)
    }

    @Test func proResInMOV() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "prores.mov", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.4",
                                                    "-c:v", "prores_ks", "-profile:v", "2"])
        let d = try check(path, "prores mov", pixelFormat: "yuv422p10le")
        #expect(d.output.pixelFormat == .yuv422p10)
    }

    @Test func mpeg2InTransportStream() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "mpeg2.ts", Self.source + ["-c:v", "mpeg2video", "-bf", "2", "-q:v", "4"])
        _ = try check(path, "mpeg2 ts")
    }

    @Test func oddSize() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "odd.mp4", ["-f", "lavfi", "-i", "testsrc2=size=385x289:rate=25", "-t", "1",
                                                 "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let d = try check(path, "385x289")
        #expect(d.statistics.zeroCopyFrames == d.statistics.framesOut)
    }

    @Test func variableFrameRate() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        // frames at irregular times: drop some and stretch others
        let path = try makeMedia(dir, "vfr.mkv", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2",
                                                 "-vf", "setpts='(N+0.4*mod(N,3)+if(gt(N,20),2,0))/30/TB'",
                                                 "-fps_mode", "vfr", "-c:v", "libx264", "-bf", "2"])
        _ = try check(path, "variable frame rate")
    }

    @Test func singleThreadSameAsFrameThreads() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "bf.mp4", Self.source + ["-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p"])
        _ = try check(path, "one thread", threads: 1)
    }

    /// What pictures say about themselves, against ffprobe's -show_frames.
    @Test func pictureMetadataAsFFprobeReadsIt() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = try makeMedia(dir, "tagged.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "0.2",
                                                    "-vf", "setsar=4/3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                                                    "-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709",
                                                    "-color_trc", "bt709", "-chroma_sample_location", "left"])
        let d = try decodeVideo(try TestDemuxer.read(path, video: true)) { _, _ in }
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_frames", "-read_intervals", "%+#1",
                                        "-show_entries", "frame=color_range,color_space,color_primaries,color_transfer,chroma_location,sample_aspect_ratio",
                                        "-of", "default=noprint_wrappers=1", path])
        var fields: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
        }
        let info = try #require(d.lastPicture)
        #expect(fields["color_range"] == "tv" && info.range == .limited)
        #expect(fields["color_space"] == "bt709" && info.matrix == .bt709)
        #expect(fields["color_primaries"] == "bt709" && info.color.primaries == .bt709)
        #expect(fields["color_transfer"] == "bt709" && info.color.transfer == .bt709)
        #expect(fields["chroma_location"] == "left" && info.color.chromaLocation == .left)
        #expect(fields["sample_aspect_ratio"] == "4:3" && info.sampleAspect == Rational(4, 3))
        #expect(info.pixelFormatName == "yuv420p" && info.width == 320 && info.height == 240)
    }
}
