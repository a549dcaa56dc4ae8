import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Timestamps survive the muxer as ffprobe reads them back.
@Suite struct MuxerTimingTests {
    /// Variable frame rate: every pts comes back as written, the last frame keeps its duration.
    /// (ffprobe's per-packet durations come from its parser here, so the stream duration is
    /// what shows the last sample's duration.)
    @Test func variableFrameRateKeepsTimestamps() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir, seconds: 1)
        let ivf = try IVFReader(path: src.ivf)
        var frames: [IVFFrame] = []
        while let f = try ivf.next() { frames.append(f) }
        let out = dir.file("vfr.mp4")
        let muxer = try MP4Muxer(path: out)
        let track = try muxer.addVideoTrack(codec: .vp9, width: 320, height: 240, timescale: 90000,
                                            configuration: .vpx(ivf.configuration))
        // Irregular spacing: 40 ms, then 20 ms, then 60 ms, repeating.
        let steps: [Int64] = [3600, 1800, 5400]
        var pts: Int64 = 0
        var written: [Int64] = []
        for (i, f) in frames.enumerated() {
            written.append(pts)
            try muxer.append(MP4Sample(data: f.data, pts: pts, duration: 2700, isSync: f.isKeyFrame), to: track)
            pts += steps[i % 3]
        }
        try muxer.finish()
        #expect(try decodeErrors(out) == "")
        let j = try ffprobe(out, ["-select_streams", "v:0", "-show_entries", "packet=pts,duration"])
        let packets = j["packets"] as? [[String: Any]] ?? []
        #expect(packets.compactMap { intValue($0["pts"]) } == written.map(Int.init))
        let v = try probeStreams(out).first ?? [:]
        #expect(v["time_base"] as? String == "1/90000")
        // The last frame keeps its own duration (2700 ticks), not the spacing before it.
        #expect(doubleValue(v["duration"]) == Double(written.last! + 2700) / 90000)
    }

    /// A track that starts later than the movie gets an empty edit: it starts later in playback.
    @Test func laterTrackStartsLater() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir, seconds: 2)
        let ivf = try IVFReader(path: src.ivf), adts = try ADTSReader(path: src.adts)
        let out = dir.file("late.mp4")
        let muxer = try MP4Muxer(path: out)
        let v = try muxer.addVideoTrack(codec: .vp9, width: 320, height: 240, timescale: 25, configuration: .vpx(ivf.configuration))
        let a = try muxer.addAudioTrack(codec: .aac, sampleRate: 44100, channels: 1, configuration: .aac(adts.configuration))
        while let f = try ivf.next() { try muxer.append(MP4Sample(data: f.data, pts: f.pts, isSync: f.isKeyFrame), to: v) }
        // Audio begins half a second in.
        while let f = try adts.next() { try muxer.append(MP4Sample(data: f.data, pts: f.pts + 22050, duration: 1024, isSync: true), to: a) }
        try muxer.finish()
        #expect(try decodeErrors(out) == "")
        let streams = try probeStreams(out)
        let audio = streams.first { $0["codec_type"] as? String == "audio" } ?? [:]
        let video = streams.first { $0["codec_type"] as? String == "video" } ?? [:]
        #expect(doubleValue(video["start_time"]) == 0)
        #expect(doubleValue(audio["start_time"]) == 0.5)
    }
}
