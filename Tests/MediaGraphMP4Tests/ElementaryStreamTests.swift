import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Timing from the stream itself, and the elementary-stream writers, checked against ffmpeg.
@Suite struct ElementaryStreamTests {
    /// Without B-frames x264 uses picture order count type 2; 30000/1001 fps keeps its exact
    /// timescale.
    @Test func pocType2AndNTSCRate() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let mp4 = dir.file("src.mp4"), h264 = dir.file("src.h264"), out = dir.file("out.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30000/1001", "-frames:v", "40", "-c:v", "libx264",
                    "-bf", "0", "-g", "20", mp4])
        try ffmpeg(["-i", mp4, "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", h264])
        let reader = try H264StreamReader(path: h264)
        let muxer = try MP4Muxer(path: out)
        let (_, frames) = try Media.addH264(h264, to: muxer)
        try muxer.finish()
        _ = try reader.next()
        #expect(reader.timer.frameRate == Rational(30000, 1001))
        #expect(reader.timer.timescale == 30000 && reader.timer.frameDuration == 1001)
        #expect(frames == 40)
        #expect(try frameMD5(out) == frameMD5(mp4))
        #expect(try probeVideoPackets(out).map(\.key) == probeVideoPackets(mp4).map(\.key))
    }

    /// A caller's rate replaces the VUI's: 50 frames at 50 fps last one second.
    @Test func callerFrameRate() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        let out = dir.file("fast.mp4")
        let muxer = try MP4Muxer(path: out)
        try Media.addH264(src.h264, to: muxer, frameRate: Rational(50, 1))
        try muxer.finish()
        let v = try probeStreams(out).first ?? [:]
        #expect(doubleValue(v["duration"]) == 1.0)
        #expect(v["r_frame_rate"] as? String == "50/1")
        #expect(intValue(v["nb_read_frames"]) == 50)
    }

    /// HEVC: Annex B → hvc1/hvcC with B-frame timing from POC; decodes to ffmpeg's frames.
    @Test func hevcRemux() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let mp4 = dir.file("src.mp4"), hevc = dir.file("src.hevc"), out = dir.file("out.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "50", "-c:v", "libx265",
                    "-x265-params", "log-level=error:bframes=3:keyint=25", "-tag:v", "hvc1", mp4])
        try ffmpeg(["-i", mp4, "-c", "copy", "-bsf:v", "hevc_mp4toannexb", "-f", "hevc", hevc])
        let reader = try HEVCStreamReader(path: hevc) // frame rate from the SPS VUI
        let muxer = try MP4Muxer(path: out)
        var track: MP4TrackID?
        var n = 0
        while let au = try reader.next() {
            if track == nil {
                track = try muxer.addVideoTrack(codec: .hevc, width: reader.timer.width, height: reader.timer.height,
                                                timescale: reader.timer.timescale,
                                                configuration: reader.timer.configuration.map { .hevc($0) })
            }
            try muxer.append(MP4Sample(data: au.data, pts: au.pts, dts: au.dts, duration: au.duration, isSync: au.isKeyFrame), to: track!)
            n += 1
        }
        try muxer.finish()
        #expect(n == 50)
        #expect(reader.timer.frameRate == Rational(25, 1))
        #expect(try decodeErrors(out) == "")
        let v = try probeStreams(out).first ?? [:]
        #expect(v["codec_name"] as? String == "hevc")
        #expect(v["codec_tag_string"] as? String == "hvc1")
        // hvcC header as ffmpeg writes it (profile/tier/level, chroma, depths, layers, length
        // size); ffmpeg also sets parallelismType (body byte 15) from the VUI and adds an SEI
        // array (so its array count, body byte 22, is one more).
        let ours = Array(try firstBox(out, "hvcC").dropFirst(8)), theirs = Array(try firstBox(mp4, "hvcC").dropFirst(8))
        #expect(ours.count > 23 && theirs.count > 23)
        #expect(Array(ours.prefix(15)) == Array(theirs.prefix(15)))
        #expect(Array(ours[16..<22]) == Array(theirs[16..<22]))
        #expect(intValue(v["width"]) == 320)
        #expect(try frameMD5(out) == frameMD5(mp4))
        #expect(try probeVideoPackets(out).map(\.key) == probeVideoPackets(mp4).map(\.key))
    }

    /// AnnexBWriter puts the parameter sets before key frames: samples stripped of them (as an
    /// encoder hands them over, config out of band) decode again to the same frames.
    @Test func annexBWriterRestoresParameterSets() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        let out = dir.file("out.h264")
        let reader = try H264StreamReader(path: src.h264)
        let writer = try AnnexBWriter(path: out, codec: .h264)
        var n = 0
        while let au = try reader.next() {
            // Keep only non-parameter-set NAL units, 4-byte length-prefixed.
            var stripped: [UInt8] = []
            for r in au.data.withUnsafeBytes({ NALUnits.annexBRanges($0) }) where ![7, 8].contains(au.data[r.lowerBound] & 0x1F) {
                let c = r.count
                stripped += [UInt8(c >> 24), UInt8((c >> 16) & 0xFF), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)] + au.data[r]
            }
            try writer.write(stripped, isKeyFrame: au.isKeyFrame, configuration: reader.timer.configuration.map { .h264($0) })
            n += 1
        }
        try writer.finish()
        #expect(n == 50)
        #expect(try decodeErrors(out) == "")
        let md5 = { (p: String) in try frameMD5(p).map { $0.split(separator: ",").last! } }
        #expect(try md5(out) == md5(src.h264))
    }

    /// IVF and ADTS: read, write again; ffmpeg sees the same packets.
    @Test func ivfAndADTSRoundTrip() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir)
        let ivfOut = dir.file("out.ivf"), adtsOut = dir.file("out.aac")
        let ivf = try IVFReader(path: src.ivf)
        let w = try IVFWriter(path: ivfOut, codec: ivf.codec, width: ivf.width, height: ivf.height, timeBase: ivf.timeBase)
        var keys = 0
        while let f = try ivf.next() { try w.write(f.data, pts: f.pts); if f.isKeyFrame { keys += 1 } }
        try w.finish()
        #expect(keys == 2)
        #expect(ivf.configuration.profile == 0 && ivf.configuration.bitDepth == 8)
        let adts = try ADTSReader(path: src.adts)
        #expect(adts.configuration.sampleRate == 44100 && adts.configuration.channels == 1)
        #expect(adts.configuration.audioSpecificConfig == [0x12, 0x08]) // LC, 44.1 kHz, mono
        let aw = try ADTSWriter(path: adtsOut, configuration: adts.configuration)
        while let f = try adts.next() { try aw.write(f.data) }
        try aw.finish()
        func packets(_ p: String) throws -> [String] {
            let r = try run("ffmpeg", ["-hide_banner", "-v", "error", "-i", p, "-c", "copy", "-f", "framemd5", "-"])
            return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        }
        #expect(try packets(ivfOut) == packets(src.ivf))
        #expect(try packets(adtsOut) == packets(src.adts))
        #expect(try !packets(ivfOut).isEmpty)
        let frames = intValue((try probeStreams(ivfOut).first ?? [:])["nb_read_frames"])
        #expect(frames == 50)
    }

    /// leading_zero_8bits before the first start code are allowed (H.264 Annex B.2).
    @Test func leadingZeroBytes() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let padded = dir.file("padded.h264")
        try (Data(repeating: 0, count: 5) + Data(contentsOf: URL(fileURLWithPath: src.h264))).write(to: URL(fileURLWithPath: padded))
        let reader = try AnnexBReader(path: padded, codec: .h264)
        var units: [AnnexBAccessUnit] = []
        while let u = try reader.next() { units.append(u) }
        #expect(units.count == 25)
        // Offsets point at each access unit's first start code in the file.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: padded)))
        for u in units {
            let o = Int(u.offset)
            #expect(Array(bytes[o..<(o + u.data.count)]) == u.data)
            #expect(u.data.starts(with: [0, 0, 1]) || u.data.starts(with: [0, 0, 0, 1]))
        }
    }

    /// x264's open-GOP key frames are I pictures with a recovery point SEI, not IDR: they keep
    /// their key flag, and presentation order runs across the open GOP boundaries.
    @Test func openGOPKeyFrames() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 3, extraX264: ["-x264-params", "open-gop=1:keyint=25:min-keyint=25:scenecut=0"])
        let out = dir.file("open.mp4")
        let muxer = try MP4Muxer(path: out)
        try Media.addH264(src.h264, to: muxer)
        try muxer.finish()
        let ours = try probeVideoPackets(out).map(\.key), theirs = try probeVideoPackets(src.mp4).map(\.key)
        #expect(theirs.filter { $0 }.count == 3)
        #expect(ours == theirs)
        #expect(try frameMD5(out) == frameMD5(src.mp4))
    }
}
