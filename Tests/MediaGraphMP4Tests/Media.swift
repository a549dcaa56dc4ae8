import Foundation
import MediaGraphCore
import MediaGraphMP4

/// Test media made by ffmpeg, and the remux path the h264src/adtssrc/ivfsrc → mp4 graph takes.
enum Media {
    /// An MP4 that ffmpeg encodes (H.264 with B-frames + AAC), plus its video as Annex B and its
    /// audio as ADTS.
    static func h264AAC(in dir: TempDir, seconds: Int = 2, size: String = "320x240", rate: String = "25",
                        extraX264: [String] = []) throws -> (mp4: String, h264: String, adts: String) {
        let mp4 = dir.file("source.mp4"), h264 = dir.file("source.h264"), adts = dir.file("source.aac")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-t", "\(seconds)", "-c:v", "libx264", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p"] + extraX264 +
                   ["-c:a", "aac", "-b:a", "96k", mp4])
        try ffmpeg(["-i", mp4, "-map", "0:v", "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", h264])
        try ffmpeg(["-i", mp4, "-map", "0:a", "-c", "copy", "-f", "adts", adts])
        return (mp4, h264, adts)
    }

    static func vp9AAC(in dir: TempDir, seconds: Int = 2) throws -> (ivf: String, adts: String) {
        let ivf = dir.file("source.ivf"), adts = dir.file("source.aac")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", "\(seconds)", "-c:v", "libvpx-vp9",
                    "-deadline", "realtime", "-cpu-used", "8", "-g", "25", "-f", "ivf", ivf])
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100", "-t", "\(seconds)", "-c:a", "aac", "-f", "adts", adts])
        return (ivf, adts)
    }

    /// Adds every access unit of an Annex B file to a new video track.
    @discardableResult
    static func addH264(_ path: String, to muxer: MP4Muxer, frameRate: Rational? = nil) throws -> (track: MP4TrackID, frames: Int) {
        let reader = try H264StreamReader(path: path, frameRate: frameRate)
        guard let first = try reader.next() else { throw TestFailure("no access units in \(path)") }
        let t = reader.timer
        let track = try muxer.addVideoTrack(codec: .h264, width: t.width, height: t.height, timescale: t.timescale,
                                            configuration: t.configuration.map { .h264($0) })
        var au: TimedAccessUnit? = first
        var n = 0
        while let a = au {
            try muxer.append(MP4Sample(data: a.data, pts: a.pts, dts: a.dts, duration: a.duration, isSync: a.isKeyFrame), to: track)
            n += 1
            au = try reader.next()
        }
        return (track, n)
    }

    /// Video and audio interleaved as a graph would deliver them: whichever is earlier first.
    static func mux(video: String, audio: String, to muxer: MP4Muxer) throws -> (videoFrames: Int, audioFrames: Int) {
        let v = try H264StreamReader(path: video)
        let a = try ADTSReader(path: audio)
        var vNext = try v.next()
        var aNext = try a.next()
        guard vNext != nil else { throw TestFailure("no video") }
        let vt = try muxer.addVideoTrack(codec: .h264, width: v.timer.width, height: v.timer.height,
                                         timescale: v.timer.timescale, configuration: v.timer.configuration.map { .h264($0) })
        let at = try muxer.addAudioTrack(codec: .aac, sampleRate: a.configuration.sampleRate,
                                         channels: a.configuration.channels, configuration: .aac(a.configuration))
        var counts = (0, 0)
        let vScale = Double(v.timer.timescale), aScale = Double(a.configuration.sampleRate)
        while vNext != nil || aNext != nil {
            let takeVideo: Bool
            if let vv = vNext, let aa = aNext { takeVideo = Double(vv.dts) / vScale <= Double(aa.pts) / aScale }
            else { takeVideo = vNext != nil }
            if takeVideo, let vv = vNext {
                try muxer.append(MP4Sample(data: vv.data, pts: vv.pts, dts: vv.dts, duration: vv.duration, isSync: vv.isKeyFrame), to: vt)
                counts.0 += 1
                vNext = try v.next()
            } else if let aa = aNext {
                try muxer.append(MP4Sample(data: aa.data, pts: aa.pts, duration: 1024, isSync: true), to: at)
                counts.1 += 1
                aNext = try a.next()
            }
        }
        try muxer.finish()
        return counts
    }
}
