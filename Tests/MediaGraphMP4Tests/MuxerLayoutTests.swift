import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

@Suite struct MuxerLayoutTests {
    @Test func vp9AndAAC() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.vp9AAC(in: dir)
        let out = dir.file("vp9.mp4")
        let muxer = try MP4Muxer(path: out)
        let ivf = try IVFReader(path: src.ivf)
        let adts = try ADTSReader(path: src.adts)
        #expect(ivf.codec == .vp9 && ivf.width == 320 && ivf.height == 240)
        var frames: [IVFFrame] = []
        while let f = try ivf.next() { frames.append(f) }
        let timescale = ivf.timeBase.den
        let vt = try muxer.addVideoTrack(codec: .vp9, width: ivf.width, height: ivf.height, timescale: timescale,
                                         configuration: .vpx(ivf.configuration))
        let at = try muxer.addAudioTrack(codec: .aac, sampleRate: adts.configuration.sampleRate,
                                         channels: adts.configuration.channels, configuration: .aac(adts.configuration))
        var audio = 0
        for f in frames {
            try muxer.append(MP4Sample(data: f.data, pts: f.pts * ivf.timeBase.num, isSync: f.isKeyFrame), to: vt)
        }
        while let a = try adts.next() {
            try muxer.append(MP4Sample(data: a.data, pts: a.pts, duration: 1024, isSync: true), to: at)
            audio += 1
        }
        try muxer.finish()
        #expect(try decodeErrors(out) == "")
        let streams = try probeStreams(out)
        let v = streams.first { $0["codec_type"] as? String == "video" } ?? [:]
        #expect(v["codec_name"] as? String == "vp9")
        #expect(intValue(v["nb_read_frames"]) == 50)
        #expect(intValue(v["width"]) == 320)
        #expect(doubleValue(v["duration"]) == 2.0)
        let a = streams.first { $0["codec_type"] as? String == "audio" } ?? [:]
        #expect(intValue(a["nb_read_frames"]) == audio)
        #expect(intValue(a["sample_rate"]) == 44100)
        // The same frames as the IVF decodes to.
        #expect(try frameMD5(out).map { $0.split(separator: ",").last! } == (try frameMD5(src.ivf)).map { $0.split(separator: ",").last! })
        if let play = try browserPlay(out, minFrames: 50) {
            #expect(play["playable"] as? Bool == true, "\(play)")
            #expect(intValue(play["totalVideoFrames"]) == 50, "\(play)")
        }
    }

    @Test func fragmentedH264AndAAC() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 4)
        let out = dir.file("frag.mp4")
        let counts = try Media.mux(video: src.h264, audio: src.adts,
                                   to: try MP4Muxer(path: out, options: MP4MuxerOptions(fragmented: true, fragmentDuration: 1)))
        #expect(try decodeErrors(out) == "")
        let boxes = try topLevelBoxes(out)
        #expect(Array(boxes.prefix(3)) == ["ftyp", "moov", "moof"])
        #expect(boxes.filter { $0 == "moof" }.count == 4) // one per key frame (every 25 frames)
        #expect(boxes.last == "mfra", "a completed fragmented file ends with its random-access index")
        try checkRandomAccessIndex(out, fragments: 4)
        // ffmpeg finds the index and reads the file through it without a complaint.
        let mfra = try run("ffmpeg", ["-hide_banner", "-v", "verbose", "-use_mfra_for", "pts", "-i", out, "-f", "null", "-"])
        #expect(mfra.status == 0 && mfra.stderr.contains("found tfra"), "\(mfra.stderr)")
        #expect(!mfra.stderr.contains("rror"), "\(mfra.stderr)")
        #expect(try frameMD5(out, ["-ss", "2"]) == frameMD5(src.mp4, ["-ss", "2"]))
        #expect(try contains(out, fourCC: "mvex"))
        let streams = try probeStreams(out)
        let v = streams.first { $0["codec_type"] as? String == "video" } ?? [:]
        #expect(intValue(v["nb_read_frames"]) == counts.videoFrames)
        #expect(try frameMD5(out) == frameMD5(src.mp4))
        if let play = try browserPlay(out, minFrames: counts.videoFrames) {
            #expect(play["playable"] as? Bool == true, "\(play)")
            #expect(intValue(play["totalVideoFrames"]) == counts.videoFrames, "\(play)")
        }
    }

    @Test func h264AACPlaysInChromiumFromZero() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        let out = dir.file("av.mp4")
        let counts = try Media.mux(video: src.h264, audio: src.adts, to: try MP4Muxer(path: out))
        guard let play = try browserPlay(out, minFrames: counts.videoFrames) else { return }
        #expect(play["playable"] as? Bool == true, "\(play)")
        #expect(intValue(play["totalVideoFrames"]) == counts.videoFrames, "\(play)")
        // The longer track sets the duration: audio (with the encoder's priming frame), unless
        // the video's two-frame B-frame delay (0.08 s) were left in.
        let expected = max(2.0, Double(counts.audioFrames * 1024) / 48000)
        if let d = doubleValue(play["duration"]) { #expect(abs(d - expected) < 0.01, "B-frame delay not removed: \(play)") }
    }

    @Test func forcedCo64AndNormalLayout() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir)
        for fastStart in [true, false] {
            let out = dir.file("co64-\(fastStart).mp4")
            let counts = try Media.mux(video: src.h264, audio: src.adts,
                                       to: try MP4Muxer(path: out, options: MP4MuxerOptions(fastStart: fastStart, forceCo64: true)))
            #expect(try contains(out, fourCC: "co64"))
            #expect(try !contains(out, fourCC: "stco"))
            #expect(try decodeErrors(out) == "")
            let boxes = try topLevelBoxes(out)
            #expect((boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!) == fastStart)
            let v = try probeStreams(out).first { $0["codec_type"] as? String == "video" } ?? [:]
            #expect(intValue(v["nb_read_frames"]) == counts.videoFrames)
            #expect(try frameMD5(out) == frameMD5(src.mp4))
        }
    }

    /// Our rotation matrix reads back as the rotation ffmpeg's own muxer writes for the same
    /// `rotate` tag.
    @Test(arguments: [90, 180, 270])
    func rotationMatchesFFmpeg(degrees: Int) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let ours = dir.file("ours.mp4"), theirs = dir.file("theirs.mp4")
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(rotation: degrees))
        try Media.addH264(src.h264, to: muxer)
        try muxer.finish()
        try ffmpeg(["-i", src.mp4, "-map", "0:v", "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", theirs])
        func rotation(_ path: String) throws -> Int? {
            let v = try probeStreams(path).first { $0["codec_type"] as? String == "video" } ?? [:]
            let side = v["side_data_list"] as? [[String: Any]] ?? []
            return side.compactMap { intValue($0["rotation"]) }.first
        }
        let expected = try rotation(theirs)
        #expect(expected != nil)
        #expect(try rotation(ours) == expected)
        // ffmpeg, as a player, turns the picture: 90/270 give a portrait frame.
        let png = dir.file("frame.png")
        try ffmpeg(["-i", ours, "-frames:v", "1", png])
        let size = try run("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png]).stdout
        #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == (degrees == 180 ? "320,240" : "240,320"))
    }

    /// VP8 from IVF into vp08/vpcC, times given as MediaTime.
    @Test func vp8() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let ivfPath = dir.file("vp8.ivf"), out = dir.file("vp8.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25", "-frames:v", "30", "-c:v", "libvpx", "-g", "10", "-f", "ivf", ivfPath])
        let ivf = try IVFReader(path: ivfPath)
        #expect(ivf.codec == .vp8)
        let muxer = try MP4Muxer(path: out)
        let format = MediaFormat.encodedVideo(EncodedVideoFormat(codec: .vp8, width: ivf.width, height: ivf.height,
                                                                 frameRate: Rational(25, 1), timeBase: ivf.timeBase))
        let track = try muxer.addTrack(for: format, configuration: .vpx(VPXConfiguration(codec: .vp8)))
        #expect(muxer.timescale(of: track) == 12800)
        let tick = ivf.timeBase
        while let f = try ivf.next() {
            try muxer.append(MP4Sample(data: f.data, pts: MediaTime(value: f.pts * tick.num, timescale: tick.den),
                                       duration: MediaTime(value: tick.num, timescale: tick.den), isSync: f.isKeyFrame,
                                       timescale: 12800), to: track)
        }
        try muxer.finish()
        #expect(try decodeErrors(out) == "")
        let v = try probeStreams(out).first ?? [:]
        #expect(v["codec_name"] as? String == "vp8")
        #expect(v["codec_tag_string"] as? String == "vp08")
        #expect(intValue(v["nb_read_frames"]) == 30)
        #expect(doubleValue(v["duration"]) == 1.2)
        #expect(try probeVideoPackets(out).filter(\.key).count == 3)
        #expect(try frameMD5(out).map { $0.split(separator: ",").last! } == (try frameMD5(ivfPath)).map { $0.split(separator: ",").last! })
    }
}

/// Reads the mfra box of a fragmented file by the ISO BMFF layout and checks it against the file:
/// mfro's size is mfra's; every tfra entry points at a moof that holds that track in the traf
/// it names, whose first sample is a sync sample; times grow; the video track lists every
/// fragment.
func checkRandomAccessIndex(_ path: String, fragments: Int) throws {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    func u32(_ i: Int) -> Int { Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3]) }
    func u64(_ i: Int) -> Int { u32(i) << 32 | u32(i + 4) }
    func type(_ i: Int) -> String { String(decoding: data[(i + 4)..<(i + 8)], as: UTF8.self) }
    // The last 16 bytes are mfro: size 16, 'mfro', version/flags, then mfra's size.
    let mfraSize = u32(data.count - 4)
    let mfra = data.count - mfraSize
    #expect(type(data.count - 16) == "mfro" && mfra >= 0 && type(mfra) == "mfra" && u32(mfra) == mfraSize)
    guard mfra >= 0, type(mfra) == "mfra" else { return }
    var videoEntries = 0
    var i = mfra + 8
    while i < data.count - 16 {
        #expect(type(i) == "tfra")
        let trackID = u32(i + 12)
        #expect(u32(i + 16) == 0, "one byte each for traf, trun and sample numbers")
        let count = u32(i + 20)
        var lastTime = -1
        for e in 0..<count {
            let entry = i + 24 + e * 19
            let time = u64(entry), moof = u64(entry + 8), traf = Int(data[entry + 16])
            #expect(time > lastTime, "times grow")
            lastTime = time
            #expect(Int(data[entry + 17]) == 1 && Int(data[entry + 18]) == 1)
            #expect(type(moof) == "moof", "entry points at a moof")
            // Walk to the traf it names and check its track and first sample's flags.
            var child = moof + 8, seen = 0
            while child < moof + u32(moof) {
                if type(child) == "traf" {
                    seen += 1
                    if seen == traf {
                        let tfhd = child + 8
                        #expect(type(tfhd) == "tfhd" && u32(tfhd + 12) == trackID)
                        var box = tfhd
                        while type(box) != "trun" { box += u32(box) }
                        let firstFlags = u32(box + 20 + 4 + 4)   // after count and data offset: duration, size, flags
                        #expect(firstFlags & 0x0001_0000 == 0, "first sample is a sync sample")
                    }
                }
                child += u32(child)
            }
        }
        if trackID == 1 { videoEntries = count }
        i += u32(i)
    }
    #expect(videoEntries == fragments)
}
