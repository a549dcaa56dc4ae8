import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Edit lists per the time-zero contract: packets before 0 (a trim's GOP lead-in, AAC priming)
/// are hidden, tracks that start after 0 are delayed by an empty edit. Compared with what
/// ffmpeg's movenc writes for the same packets, and with what ffmpeg and Chromium then present.
@Suite struct EditListTests {
    static func startTimes(_ path: String) throws -> [Double] {
        try probeStreams(path).map { doubleValue($0["start_time"]) ?? .nan }
    }

    /// `ffmpeg -ss 1.4 -i IN -c copy`: the copy starts at the key frame at 1.0 s, so 0.4 s of
    /// video (and the audio before 1.4 s) has negative timestamps. Our edit lists hide the same
    /// lead-in: the same boxes, the same decoded frames, the same start in Chromium.
    @Test func leadInOfAStreamCopyTrim() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 2)
        let ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-ss", "1.4", "-i", src.mp4, "-c", "copy", ref])
        let video = try ProbedStream(ref, select: "v:0"), audio = try ProbedStream(ref, select: "a:0")
        #expect((video.packets.first?.pts ?? 0) < 0 && (audio.packets.first?.pts ?? 0) < 0)
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .h264(try #require(video.avcConfiguration)))
        let a = try muxer.addAudioTrack(codec: .aac, sampleRate: 48000, channels: 1,
                                        configuration: .aac(AACConfiguration(audioSpecificConfig: audio.extradata, sampleRate: 48000, channels: 1)))
        try StreamCopyTests.mux([(video, v), (audio, a)], into: muxer)
        #expect(try decodeErrors(ours) == "")
        let o = try BoxTree(ours), f = try BoxTree(ref)
        #expect(o.all("moov.trak.edts.elst").map(\.hex) == f.all("moov.trak.edts.elst").map(\.hex))
        #expect(try Self.startTimes(ours) == [0, 0])
        let frames = try frameMD5(ours)
        let reference = try frameMD5(ref)
        #expect(frames.count == 15 && frames == reference)   // 0.6 s at 25 fps
        let play = try #require(try browserPlay(ours, minFrames: 15)), theirs = try #require(try browserPlay(ref, minFrames: 15))
        #expect(play["exitStatus"] as? Int == 0, "\(play)")
        #expect(intValue(play["totalVideoFrames"]) == intValue(theirs["totalVideoFrames"]), "\(play) vs \(theirs)")
        #expect(doubleValue(play["duration"]) == doubleValue(theirs["duration"]))
    }

    /// `ffmpeg -itsoffset 1 -i IN -c copy`: every track starts after 0, so each gets an empty
    /// edit of its own start (the audio's priming then plays from 0.978 s, as ffmpeg has it).
    @Test func tracksStartingLate() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-itsoffset", "1", "-i", src.mp4, "-c", "copy", ref])
        let video = try ProbedStream(ref, select: "v:0")
        var audio = try ProbedStream(ref, select: "a:0")
        try audio.takeDurations(fromSTTSOf: ref, track: 1)
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .h264(try #require(video.avcConfiguration)))
        let a = try muxer.addAudioTrack(codec: .aac, sampleRate: 48000, channels: 1,
                                        configuration: .aac(AACConfiguration(audioSpecificConfig: audio.extradata, sampleRate: 48000, channels: 1)))
        try StreamCopyTests.mux([(video, v), (audio, a)], into: muxer)
        #expect(try decodeErrors(ours) == "")
        let o = try BoxTree(ours), f = try BoxTree(ref)
        #expect(o.all("moov.trak.edts.elst").map(\.hex) == f.all("moov.trak.edts.elst").map(\.hex))
        let starts = try Self.startTimes(ours)
        let refStarts = try Self.startTimes(ref)
        #expect(starts == refStarts)
        #expect(starts.first == 1.0)
        let refFrames = try frameMD5(ref)
        #expect(try frameMD5(ours) == refFrames)
    }
}
