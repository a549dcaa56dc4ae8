import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Track metadata in the moov: colour (`colr` nclx), aspect (`pasp`, display width in tkhd),
/// rotation (tkhd matrix), language (mdhd) and creation time (mvhd, tkhd, mdhd), compared with
/// ffmpeg's boxes for the same stream and read back by ffprobe.
@Suite struct MetadataTests {
    /// 2024-05-01T12:00:00Z
    static let created: Int64 = 1_714_564_800

    static func streams(_ path: String) throws -> (video: [String: Any], audio: [String: Any]) {
        let s = try probeStreams(path)
        return (s.first { $0["codec_type"] as? String == "video" } ?? [:], s.first { $0["codec_type"] as? String == "audio" } ?? [:])
    }

    static func rotation(_ v: [String: Any]) -> Int? {
        (v["side_data_list"] as? [[String: Any]] ?? []).compactMap { intValue($0["rotation"]) }.first
    }

    /// ffmpeg encodes a stream tagged BT.709 limited, SAR 4:3, French video and English audio,
    /// made 2024-05-01 12:00 UTC; our muxer, given the same packets and the same facts, writes
    /// the same colr, pasp, tkhd (display width 426.67), mdhd, mvhd and edit lists.
    @Test func boxesEqualFFmpegs() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-t", "1", "-vf", "setsar=4/3", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709",
                    "-color_range", "tv", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "2", "-c:a", "aac",
                    "-metadata:s:v:0", "language=fra", "-metadata:s:a:0", "language=eng",
                    "-metadata", "creation_time=2024-05-01T12:00:00Z", ref])
        let video = try ProbedStream(ref, select: "v:0"), audio = try ProbedStream(ref, select: "a:0")
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .h264(try #require(video.avcConfiguration)),
                                        metadata: MP4TrackMetadata(language: "fra", creationTime: Self.created,
                                                                   colour: MP4Colour(primaries: 1, transfer: 1, matrix: 1, fullRange: false),
                                                                   sampleAspect: Rational(4, 3)))
        let a = try muxer.addAudioTrack(codec: .aac, sampleRate: 48000, channels: 1,
                                        configuration: .aac(AACConfiguration(audioSpecificConfig: audio.extradata, sampleRate: 48000, channels: 1)),
                                        metadata: MP4TrackMetadata(language: "eng", creationTime: Self.created))
        try StreamCopyTests.mux([(video, v), (audio, a)], into: muxer)
        #expect(try decodeErrors(ours) == "")
        let o = try BoxTree(ours), f = try BoxTree(ref)
        let entry = "moov.trak.mdia.minf.stbl.stsd.avc1"
        for box in [entry + ".colr", entry + ".pasp", "moov.mvhd", "moov.trak.tkhd", "moov.trak.mdia.mdhd", "moov.trak.edts.elst"] {
            #expect(!o.all(box).isEmpty && o.all(box).map(\.hex) == f.all(box).map(\.hex), "\(box) differs from ffmpeg's")
        }
    }

    /// Where the bitstream says nothing (no VUI colour or aspect), ffprobe reads what the boxes
    /// say: colour, range, aspect, rotation, language and creation time; in both layouts.
    @Test(arguments: [false, true])
    func ffprobeReadsTheBoxes(fragmented: Bool) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let out = dir.file("tagged.mp4")
        let muxer = try MP4Muxer(path: out, options: MP4MuxerOptions(fragmented: fragmented))
        let colour = MP4Colour(primaries: 9, transfer: 16, matrix: 9, fullRange: true)
        let reader = try H264StreamReader(path: src.h264)
        var next = try reader.next()
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: reader.timer.timescale,
                                        configuration: reader.timer.configuration.map { .h264($0) },
                                        metadata: MP4TrackMetadata(language: "deu", creationTime: Self.created, colour: colour,
                                                                   sampleAspect: Rational(16, 11), rotation: 90))
        while let au = next {
            try muxer.append(MP4Sample(data: au.data, pts: au.pts, dts: au.dts, duration: au.duration, isSync: au.isKeyFrame), to: v)
            next = try reader.next()
        }
        try muxer.finish()
        #expect(try decodeErrors(out) == "")
        let (video, _) = try Self.streams(out)
        #expect(video["color_range"] as? String == "pc")
        #expect(video["color_space"] as? String == "bt2020nc")
        #expect(video["color_transfer"] as? String == "smpte2084")
        #expect(video["color_primaries"] as? String == "bt2020")
        #expect(video["sample_aspect_ratio"] as? String == "16:11")
        // MediaGraph's rotation is ffmpeg 5.1's `rotate` tag and ffprobe's rotation (libavutil's
        // av_display_rotation_get), so a copy keeps the matrix whichever way it turns
        #expect(Self.rotation(video) == 90)
        let tags = video["tags"] as? [String: Any] ?? [:]
        #expect(tags["language"] as? String == "deu")
        #expect(tags["creation_time"] as? String == "2024-05-01T12:00:00.000000Z")
        let format = try ffprobe(out, ["-show_format"])["format"] as? [String: Any] ?? [:]
        #expect((format["tags"] as? [String: Any])?["creation_time"] as? String == "2024-05-01T12:00:00.000000Z")
    }

    /// The muxer's rotation option overrides the tracks' own; an unknown language is "und"; a
    /// square or unknown aspect writes no pasp and no colour writes no colr.
    @Test func overridesAndDefaults() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let out = dir.file("o.mp4")
        let muxer = try MP4Muxer(path: out, options: MP4MuxerOptions(rotation: 180))
        let reader = try H264StreamReader(path: src.h264)
        var next = try reader.next()
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: reader.timer.timescale,
                                        configuration: reader.timer.configuration.map { .h264($0) },
                                        metadata: MP4TrackMetadata(language: "english", sampleAspect: Rational(1, 1), rotation: 90))
        while let au = next {
            try muxer.append(MP4Sample(data: au.data, pts: au.pts, dts: au.dts, duration: au.duration, isSync: au.isKeyFrame), to: v)
            next = try reader.next()
        }
        try muxer.finish()
        let (video, _) = try Self.streams(out)
        #expect(Self.rotation(video) == 180 || Self.rotation(video) == -180)
        #expect((video["tags"] as? [String: Any])?["language"] as? String == "und")
        let boxes = try BoxTree(out)
        #expect(!boxes.has("moov.trak.mdia.minf.stbl.stsd.avc1.pasp"))
        #expect(!boxes.has("moov.trak.mdia.minf.stbl.stsd.avc1.colr"))
        #expect(Array(boxes.first("moov.trak.tkhd")?.suffix(8) ?? []) == [0x01, 0x40, 0, 0, 0, 0xF0, 0, 0])   // 320 x 240
    }

    /// Rotation given per track must be a multiple of 90 degrees (-90 is 270).
    @Test func rotationMustBeQuarterTurns() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let muxer = try MP4Muxer(path: dir.file("r.mp4"))
        #expect(throws: MP4MuxerError.invalidOption("track 1: rotation 45 is not a multiple of 90 degrees")) {
            _ = try muxer.addVideoTrack(codec: .h264, width: 64, height: 64, timescale: 25, metadata: MP4TrackMetadata(rotation: 45))
        }
        _ = try muxer.addVideoTrack(codec: .h264, width: 64, height: 64, timescale: 25, metadata: MP4TrackMetadata(rotation: -90))
        muxer.cancel()
    }
}
