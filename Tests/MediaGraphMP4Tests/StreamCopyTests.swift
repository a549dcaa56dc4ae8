import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Stream copy into MP4: the packets ffmpeg's demuxer reads from a WebM, MP3, M4A or MP4 file go
/// through our muxer, and the result is compared box by box and packet by packet with what
/// `ffmpeg -i IN -c copy OUT.mp4` writes for the same packets, decoded by ffmpeg and played by
/// Chromium.
@Suite struct StreamCopyTests {
    /// Feeds the streams' packets in decode-time order (as a graph delivers them), converting
    /// each stream's ticks to its track's timescale.
    static func mux(_ streams: [(ProbedStream, MP4TrackID)], into muxer: MP4Muxer) throws {
        var next = Array(repeating: 0, count: streams.count)
        while true {
            var pick: Int?
            var best = Double.infinity
            for (k, s) in streams.enumerated() where next[k] < s.0.packets.count {
                let t = Double(s.0.packets[next[k]].dts) * s.0.timeBase.doubleValue
                if t < best { best = t; pick = k }
            }
            guard let k = pick else { break }
            let (stream, track) = streams[k]
            let p = stream.packets[next[k]]
            next[k] += 1
            let tb = stream.timeBase
            let ts = muxer.timescale(of: track)!
            func ticks(_ v: Int64) -> MediaTime { MediaTime(value: v * tb.num, timescale: tb.den) }
            try muxer.append(MP4Sample(data: p.data, pts: ticks(p.pts), dts: ticks(p.dts), duration: ticks(p.duration),
                                       isSync: p.isKey, timescale: ts), to: track)
        }
        try muxer.finish()
    }

    /// Per packet of one stream: pts, dts, duration, key flag, size and an MD5 of the data.
    static func packets(_ path: String, _ select: String) throws -> [String] {
        let r = try run("ffprobe", ["-v", "error", "-select_streams", select, "-show_entries", "packet=pts,dts,duration,flags,size",
                                    "-show_data_hash", "MD5", "-of", "csv=p=0", path])
        return r.stdout.split(separator: "\n").map(String.init)
    }

    /// MD5 of a stream decoded by ffmpeg (edit lists applied).
    static func decodedMD5(_ path: String, _ select: String) throws -> String {
        let r = try run("ffmpeg", ["-hide_banner", "-v", "error", "-i", path, "-map", "0:\(select)", "-f", "md5", "-"])
        if r.status != 0 { throw TestFailure("decoding \(path) failed: \(r.stderr)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// VP9 + Opus from WebM, rebased by the file's start time as ffmpeg does: Opus + dOps, the
    /// roll group, the edit lists and every packet as in ffmpeg's copy; plays in Chromium.
    @Test func opusAndVP9FromWebM() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let webm = dir.file("in.webm"), ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4"), ivf = dir.file("in.ivf")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-t", "1", "-ac", "2", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25",
                    "-c:a", "libopus", "-b:a", "64k", webm])
        try ffmpeg(["-i", webm, "-c", "copy", ref])
        try ffmpeg(["-i", webm, "-map", "0:v", "-c", "copy", ivf])
        var video = try ProbedStream(webm, select: "v:0"), audio = try ProbedStream(webm, select: "a:0")
        let start = min(video.startTime, audio.startTime)
        video.shift(by: -start)
        audio.shift(by: -start)
        let opus = try #require(audio.opusConfiguration)
        #expect(opus.preSkip == 312 && opus.channels == 2)

        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let v = try muxer.addVideoTrack(codec: .vp9, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .vpx(try IVFReader(path: ivf).configuration))
        let a = try muxer.addAudioTrack(codec: .opus, sampleRate: 48000, channels: 2, configuration: .opus(opus))
        #expect(muxer.timescale(of: a) == 48000)
        try Self.mux([(video, v), (audio, a)], into: muxer)

        #expect(try decodeErrors(ours) == "")
        #expect(try Self.packets(ours, "v:0") == Self.packets(ref, "v:0"))
        #expect(try Self.packets(ours, "a:0") == Self.packets(ref, "a:0"))
        #expect(try Self.decodedMD5(ours, "a:0") == Self.decodedMD5(ref, "a:0"))
        let o = try BoxTree(ours), f = try BoxTree(ref)
        let entry = "moov.trak.mdia.minf.stbl.stsd.Opus"
        #expect(o.first(entry) != nil && o.first(entry) == f.first(entry))
        #expect(o.first(entry + ".dOps")?.hex == f.first(entry + ".dOps")?.hex)
        for box in ["moov.trak.edts.elst", "moov.trak.mdia.mdhd", "moov.trak.mdia.minf.stbl.stts",
                    "moov.trak.mdia.minf.stbl.sgpd", "moov.trak.mdia.minf.stbl.sbgp", "moov.trak.tkhd", "moov.mvhd"] {
            #expect(o.all(box).map(\.hex) == f.all(box).map(\.hex), "\(box) differs from ffmpeg's")
        }
        let play = try #require(try browserPlay(ours, minFrames: 25))
        #expect(play["exitStatus"] as? Int == 0, "\(play)")
        #expect(intValue(play["totalVideoFrames"]) == 25, "\(play)")
    }

    /// The same in a fragmented file: the same sample entries, the same decoded audio, and it
    /// plays in Chromium.
    @Test func opusAndVP9Fragmented() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let webm = dir.file("in.webm"), ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4"), ivf = dir.file("in.ivf")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                    "-t", "2", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "25", "-c:a", "libopus", webm])
        try ffmpeg(["-i", webm, "-c", "copy", ref])
        try ffmpeg(["-i", webm, "-map", "0:v", "-c", "copy", ivf])
        var video = try ProbedStream(webm, select: "v:0"), audio = try ProbedStream(webm, select: "a:0")
        let start = min(video.startTime, audio.startTime)
        video.shift(by: -start)
        audio.shift(by: -start)
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(fragmented: true))
        let v = try muxer.addVideoTrack(codec: .vp9, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .vpx(try IVFReader(path: ivf).configuration))
        let a = try muxer.addAudioTrack(codec: .opus, sampleRate: 48000, channels: 1, configuration: .opus(try #require(audio.opusConfiguration)))
        try Self.mux([(video, v), (audio, a)], into: muxer)
        #expect(muxer.completedFragments >= 2)
        #expect(try decodeErrors(ours) == "")
        #expect(try Self.decodedMD5(ours, "a:0") == Self.decodedMD5(ref, "a:0"))
        let entry = "moov.trak.mdia.minf.stbl.stsd.Opus.dOps"
        #expect(try BoxTree(ours).first(entry) == BoxTree(ref).first(entry))
        let play = try #require(try browserPlay(ours, minFrames: 50))
        #expect(play["exitStatus"] as? Int == 0, "\(play)")
        #expect(intValue(play["totalVideoFrames"]) == 50, "\(play)")
    }

    /// MP3 into mp4a with objectTypeIndication 0x6B: the MP3 file's frames, the encoder delay
    /// its LAME header states as negative timestamps (the time-zero contract), give the same
    /// packets, edit list, timing and decoded samples as ffmpeg's copy.
    @Test func mp3() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let mp3 = dir.file("in.mp3"), ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=44100", "-t", "1", "-ac", "2", "-c:a", "libmp3lame", "-b:a", "128k", mp3])
        try ffmpeg(["-i", mp3, "-c", "copy", ref])
        var audio = try ProbedStream(mp3, select: "a:0")
        #expect(audio.skipSamples == 1105, "LAME's delay")
        audio.shift(by: -Double(audio.skipSamples) / 44100)
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let a = try muxer.addAudioTrack(codec: .mp3, sampleRate: 44100, channels: 2)   // no configuration needed
        try Self.mux([(audio, a)], into: muxer)

        #expect(try decodeErrors(ours) == "")
        #expect(try Self.packets(ours, "a:0") == Self.packets(ref, "a:0"))
        #expect(try Self.decodedMD5(ours, "a:0") == Self.decodedMD5(ref, "a:0"))
        let o = try BoxTree(ours), f = try BoxTree(ref)
        let esds = "moov.trak.mdia.minf.stbl.stsd.mp4a.esds"
        // objectTypeIndication and streamType (bitrates and buffer size are estimates that differ)
        let oti = { (b: [UInt8]?) -> [UInt8]? in Self.after(b, [0x04, 0x80, 0x80, 0x80], skip: 1, count: 2) }
        #expect(oti(o.first(esds)) == [0x6B, 0x15] && oti(f.first(esds)) == [0x6B, 0x15])
        for box in ["moov.trak.edts.elst", "moov.trak.mdia.mdhd", "moov.trak.mdia.minf.stbl.stts", "moov.trak.mdia.minf.stbl.stsd.mp4a"] {
            #expect(o.first(box)?.hex == f.first(box)?.hex, "\(box) differs from ffmpeg's")
        }
        #expect(!o.has("moov.trak.mdia.minf.stbl.sgpd"))   // ffmpeg writes roll groups for AAC and Opus only
        // Chromium plays both to the end without an error (browser-play wants a video track to
        // call a file playable, so compare with ffmpeg's file instead).
        let play = try #require(try browserPlay(ours, minFrames: 0)), theirs = try #require(try browserPlay(ref, minFrames: 0))
        #expect(play["error"] is NSNull && play["ended"] as? Bool == true, "\(play)")
        #expect(abs((doubleValue(play["duration"]) ?? 0) - (doubleValue(theirs["duration"]) ?? 9)) < 0.01, "\(play) vs \(theirs)")
    }

    /// AAC copied from another file keeps that file's AudioSpecificConfig (here HE-AAC-free
    /// LC at 44.1 kHz mono from an M4A) and its priming as an edit list.
    @Test func aacFromM4A() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let m4a = dir.file("in.m4a"), ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=500:sample_rate=44100", "-t", "1", "-c:a", "aac", "-b:a", "64k", m4a])
        try ffmpeg(["-i", m4a, "-c", "copy", ref])
        let audio = try ProbedStream(m4a, select: "a:0")
        #expect(audio.packets.first?.pts == -1024)
        let asc = audio.extradata
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let a = try muxer.addAudioTrack(codec: .aac, sampleRate: 44100, channels: 1,
                                        configuration: .aac(AACConfiguration(audioSpecificConfig: asc, sampleRate: 44100, channels: 1)))
        try Self.mux([(audio, a)], into: muxer)
        #expect(try decodeErrors(ours) == "")
        #expect(try Self.packets(ours, "a:0") == Self.packets(ref, "a:0"))
        #expect(try Self.decodedMD5(ours, "a:0") == Self.decodedMD5(ref, "a:0"))
        let o = try BoxTree(ours), f = try BoxTree(ref)
        for box in ["moov.trak.edts.elst", "moov.trak.mdia.minf.stbl.stts",
                    "moov.trak.mdia.minf.stbl.sgpd", "moov.trak.mdia.minf.stbl.sbgp"] {
            #expect(o.first(box)?.hex == f.first(box)?.hex, "\(box) differs from ffmpeg's")
        }
        let dsi = { (b: [UInt8]?) -> [UInt8]? in Self.after(b, [0x05, 0x80, 0x80, 0x80], skip: 1, count: asc.count) }
        #expect(dsi(o.first("moov.trak.mdia.minf.stbl.stsd.mp4a.esds")) == asc)
    }

    /// H.264 from MP4 with 4-byte length prefixes passes through untouched; 2-byte prefixes are
    /// widened to 4. Either way every packet (data included) equals ffmpeg's copy, and so does
    /// the avcC.
    @Test(arguments: [4, 2])
    func lengthPrefixedH264(prefix: Int) throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 1)
        let ref = dir.file("ffmpeg.mp4"), ours = dir.file("ours.mp4")
        try ffmpeg(["-i", src.mp4, "-map", "0:v", "-c", "copy", ref])
        var video = try ProbedStream(src.mp4, select: "v:0")
        var config = try #require(video.avcConfiguration)
        #expect(config.framing == .lengthPrefixed(4))
        if prefix != 4 {
            for i in video.packets.indices { video.packets[i].data = try Self.narrow(video.packets[i].data, to: prefix) }
            config.framing = .lengthPrefixed(prefix)
        }
        let muxer = try MP4Muxer(path: ours, options: MP4MuxerOptions(movieTimescale: 1000))
        let v = try muxer.addVideoTrack(codec: .h264, width: 320, height: 240, timescale: MP4Muxer.timescale(for: video.timeBase),
                                        configuration: .h264(config))
        try Self.mux([(video, v)], into: muxer)
        #expect(try decodeErrors(ours) == "")
        #expect(try Self.packets(ours, "v:0") == Self.packets(ref, "v:0"))
        let o = try BoxTree(ours), f = try BoxTree(ref)
        let avcC = "moov.trak.mdia.minf.stbl.stsd.avc1.avcC"
        #expect(o.first(avcC) != nil && o.first(avcC) == f.first(avcC))
        #expect(o.first("moov.trak.edts.elst") == f.first("moov.trak.edts.elst"))
    }

    /// Length prefixes that run past the sample's end are an error naming the sample.
    @Test func brokenLengthPrefixes() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let muxer = try MP4Muxer(path: dir.file("bad.mp4"))
        var config = H264Configuration(sps: [[0x67, 0x42, 0xC0, 0x1E, 0x95]], pps: [[0x68, 0xCE, 0x3C, 0x80]])
        config.framing = .lengthPrefixed(2)
        let v = try muxer.addVideoTrack(codec: .h264, width: 64, height: 64, timescale: 25, configuration: .h264(config))
        try muxer.append(MP4Sample(data: [0x00, 0x03, 0x65, 0x88, 0x84], pts: 0, duration: 1, isSync: true), to: v)
        #expect(throws: MP4MuxerError.invalidSample(track: "track 1 (video h264)", sample: 1,
                                                    reason: "NAL unit length 9 at byte 0 runs past the sample's end (3 bytes left)")) {
            try muxer.append(MP4Sample(data: [0x00, 0x09, 0x65, 0x88, 0x84], pts: 1, duration: 1, isSync: false), to: v)
            try muxer.finish()
        }
        #expect(listing(dir.path).isEmpty)
    }

    /// `count` bytes found `skip` bytes after the first occurrence of `marker` in `bytes`.
    static func after(_ bytes: [UInt8]?, _ marker: [UInt8], skip: Int, count: Int) -> [UInt8]? {
        guard let b = bytes, let r = b.firstRange(of: marker), r.upperBound + skip + count <= b.count else { return nil }
        return Array(b[(r.upperBound + skip)..<(r.upperBound + skip + count)])
    }

    /// Rewrites 4-byte NAL lengths as `size`-byte ones (test input for the widening path).
    static func narrow(_ data: [UInt8], to size: Int) throws -> [UInt8] {
        var out: [UInt8] = [], i = 0
        while i + 4 <= data.count {
            let n = Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3])
            guard n < 1 << (8 * size) else { throw TestFailure("NAL unit of \(n) bytes does not fit \(size)-byte lengths") }
            for k in (0..<size).reversed() { out.append(UInt8((n >> (8 * k)) & 0xFF)) }
            out.append(contentsOf: data[(i + 4)..<(i + 4 + n)])
            i += 4 + n
        }
        return out
    }
}
