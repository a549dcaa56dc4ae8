import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

@Suite struct RemuxTests {
    /// h264src → mp4 is frame-accurate: same decoded frames, pts and durations as the MP4 that
    /// ffmpeg encoded, and the same key frames.
    @Test func annexBRemuxMatchesOriginalFrames() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        let out = dir.file("remux.mp4")
        let muxer = try MP4Muxer(path: out)
        let (_, frames) = try Media.addH264(src.h264, to: muxer)
        try muxer.finish()
        #expect(frames == 50)
        #expect(try decodeErrors(out) == "")
        let ours = try frameMD5(out), theirs = try frameMD5(src.mp4)
        #expect(ours.count == 50)
        #expect(ours == theirs)
        let ourKeys = try probeVideoPackets(out).map(\.key), theirKeys = try probeVideoPackets(src.mp4).map(\.key)
        #expect(ourKeys == theirKeys)
        #expect(ourKeys.filter { $0 }.count == 2)
        // The decoder configuration record is byte for byte what ffmpeg's muxer writes.
        #expect(try firstBox(out, "avcC") == firstBox(src.mp4, "avcC"))
        #expect(try firstBox(out, "avcC").count > 30)
    }

    @Test func h264AndAACProbeAsWritten() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        let out = dir.file("av.mp4")
        let counts = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out))
        #expect(try decodeErrors(out) == "")
        let streams = try probeStreams(out)
        #expect(streams.count == 2)
        let v = streams.first { $0["codec_type"] as? String == "video" } ?? [:]
        let a = streams.first { $0["codec_type"] as? String == "audio" } ?? [:]
        #expect(v["codec_name"] as? String == "h264")
        #expect(intValue(v["width"]) == 320 && intValue(v["height"]) == 240)
        #expect(intValue(v["nb_read_frames"]) == counts.videoFrames)
        #expect(doubleValue(v["duration"]) == 2.0)
        #expect(v["r_frame_rate"] as? String == "25/1")
        #expect(a["codec_name"] as? String == "aac")
        #expect(intValue(a["sample_rate"]) == 48000)
        #expect(intValue(a["nb_read_frames"]) == counts.audioFrames)
        // moov first (fast start is the default)
        let boxes = try topLevelBoxes(out)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!)
        // B-frames: the first frame is displayed at 0 (edit list), as in ffmpeg's own file.
        let firstPTS = try probeVideoPackets(out).map(\.pts).compactMap(Double.init).min()
        #expect(firstPTS == 0)
    }
}

@Suite struct InterleaveTests {
    /// In file order, no packet's decode time is more than about a second behind one already
    /// written: a progressive reader never has to look far ahead. Both tracks appear early.
    @Test func chunksSpanAtMostAboutASecond() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 5)
        let out = dir.file("av.mp4")
        _ = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out))
        let j = try ffprobe(out, ["-show_entries", "packet=stream_index,dts_time,pos"])
        let packets = (j["packets"] as? [[String: Any]] ?? []).compactMap { p -> (Int, Double, Int)? in
            guard let s = intValue(p["stream_index"]), let t = doubleValue(p["dts_time"]), let pos = intValue(p["pos"]) else { return nil }
            return (s, t, pos)
        }.sorted { $0.2 < $1.2 }
        #expect(packets.count == 125 + 236)
        var latest = -Double.infinity
        var worst = 0.0
        for p in packets {
            worst = max(worst, latest - p.1)
            latest = max(latest, p.1)
        }
        #expect(worst <= 1.05, "a packet \(worst) s behind one before it in the file")
        #expect(Set(packets.prefix(100).map(\.0)) == [0, 1])
    }

    /// Samples fed in decode order are written in decode order, each as soon as the other track
    /// has one queued (ffmpeg's interleaving), not held for a chunk of a second: in file order no
    /// packet's decode time (ffprobe's) is behind one already written by more than the rounding
    /// of ffprobe's six decimals, and the chunks are short (one video frame, two or three AAC
    /// frames: about as many chunks as runs of one track in the file).
    @Test func samplesAreWrittenInDecodeOrderAsTheyArrive() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 3)
        for fastStart in [false, true] {
            let out = dir.file("av-\(fastStart).mp4")
            _ = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out, options: MP4MuxerOptions(fastStart: fastStart)))
            #expect(try decodeErrors(out) == "")
            let j = try ffprobe(out, ["-show_entries", "packet=stream_index,dts_time,pos"])
            let packets = (j["packets"] as? [[String: Any]] ?? []).compactMap { p -> (Int, Double, Int)? in
                guard let s = intValue(p["stream_index"]), let t = doubleValue(p["dts_time"]), let pos = intValue(p["pos"]) else { return nil }
                return (s, t, pos)
            }.sorted { $0.2 < $1.2 }
            #expect(packets.count == 75 + 142)
            var latest = -Double.infinity, worst = 0.0, runs = 0
            for (i, p) in packets.enumerated() {
                worst = max(worst, latest - p.1)
                latest = max(latest, p.1)
                if i == 0 || packets[i - 1].0 != p.0 { runs += 1 }
            }
            #expect(worst <= 0.000_002, "a packet \(worst) s behind one before it in the file")
            #expect(runs >= 75, "\(runs) runs of one track: chunks are held back")
        }
    }
}
