import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// The MPD text, segment name templates, codec strings and ffmpeg's segment rule, without
/// encoders; the writer with made-up samples in a temporary folder.
@Suite struct DASHManifestTests {
    static let vp9 = CodecConfiguration.vpx(VPXConfiguration(codec: .vp9))
    static let aac = CodecConfiguration.aac(AACConfiguration(audioSpecificConfig: [0x11, 0x90], sampleRate: 48000, channels: 2))

    static func representations() throws -> [DASHManifest.Representation] {
        [DASHManifest.Representation(id: 0, media: .video(width: 640, height: 360, frameRate: Rational(30, 1), sampleAspect: Rational(1, 1), interlaced: false),
                                     codecs: "avc1.64001e", bandwidth: 500_000, language: "eng", timescale: 15360,
                                     initialization: .ffmpegInitialization, segmentName: .ffmpegSegment,
                                     segments: [DASHSegment(time: 0, duration: 30720), DASHSegment(time: 30720, duration: 30720),
                                                DASHSegment(time: 61440, duration: 15360)]),
         DASHManifest.Representation(id: 1, media: .audio(sampleRate: 48000, channels: 2), codecs: "mp4a.40.2", bandwidth: 128_000,
                                     timescale: 48000, initialization: .ffmpegInitialization, segmentName: .ffmpegSegment,
                                     segments: [DASHSegment(time: 0, duration: 95232), DASHSegment(time: 95232, duration: 96256),
                                                DASHSegment(time: 191488, duration: 48512)])]
    }

    /// A static MPD as ffmpeg lays it out: the header attributes, one AdaptationSet per
    /// representation, SegmentTemplate and SegmentTimeline with t on the first row and r for
    /// repeats, durations from the segments (the longest, twice it, the latest end).
    @Test func staticManifestText() throws {
        let m = DASHManifest(kind: .static, representations: try Self.representations())
        #expect(m.text == """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
        \txmlns="urn:mpeg:dash:schema:mpd:2011"
        \txmlns:xlink="http://www.w3.org/1999/xlink"
        \txsi:schemaLocation="urn:mpeg:DASH:schema:MPD:2011 http://standards.iso.org/ittf/PubliclyAvailableStandards/MPEG-DASH_schema_files/DASH-MPD.xsd"
        \tprofiles="urn:mpeg:dash:profile:isoff-live:2011"
        \ttype="static"
        \tmediaPresentationDuration="PT5.0S"
        \tmaxSegmentDuration="PT2.005334S"
        \tminBufferTime="PT4.010667S">
        \t<Period id="0" start="PT0.0S">
        \t\t<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true" frameRate="30/1" maxWidth="640" maxHeight="360" par="16:9" lang="eng">
        \t\t\t<Representation id="0" mimeType="video/mp4" codecs="avc1.64001e" bandwidth="500000" width="640" height="360" sar="1:1">
        \t\t\t\t<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
        \t\t\t\t\t<SegmentTimeline>
        \t\t\t\t\t\t<S t="0" d="30720" r="1" />
        \t\t\t\t\t\t<S d="15360" />
        \t\t\t\t\t</SegmentTimeline>
        \t\t\t\t</SegmentTemplate>
        \t\t\t</Representation>
        \t\t</AdaptationSet>
        \t\t<AdaptationSet id="1" contentType="audio" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true">
        \t\t\t<Representation id="1" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000">
        \t\t\t\t<AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2" />
        \t\t\t\t<SegmentTemplate timescale="48000" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
        \t\t\t\t\t<SegmentTimeline>
        \t\t\t\t\t\t<S t="0" d="95232" />
        \t\t\t\t\t\t<S d="96256" />
        \t\t\t\t\t\t<S d="48512" />
        \t\t\t\t\t</SegmentTimeline>
        \t\t\t\t</SegmentTemplate>
        \t\t\t</Representation>
        \t\t</AdaptationSet>
        \t</Period>
        </MPD>

        """)
    }

    /// A dynamic MPD has the live attributes (update period, delay, availability start and
    /// publish time in UTC) instead of a duration; a title, a gap in a timeline, a segment cut
    /// without a key frame and text that needs escaping show as they should.
    @Test func dynamicManifestAndDetails() throws {
        var reps = try Self.representations()
        reps[0].segments[2].time += 512                 // a gap: that row states its t
        reps[1].segments[1].startsWithKeyFrame = false  // no startWithSAP for that set
        reps[0].media = .video(width: 720, height: 576, frameRate: nil, sampleAspect: Rational(16, 15), interlaced: true)
        var m = DASHManifest(kind: .dynamic, representations: reps)
        m.title = "Tom & \"Jerry\"\n"
        m.availabilityStart = 1_714_564_800_250_000
        m.published = 1_714_564_805_000_999
        let text = m.text
        #expect(text.contains("\ttype=\"dynamic\"\n\tminimumUpdatePeriod=\"PT1.0S\"\n\tsuggestedPresentationDelay=\"PT1.0S\"\n"
                              + "\tavailabilityStartTime=\"2024-05-01T12:00:00.250Z\"\n\tpublishTime=\"2024-05-01T12:00:05.000Z\"\n"), "\(text)")
        #expect(!text.contains("mediaPresentationDuration"))
        #expect(text.contains("\t<ProgramInformation>\n\t\t<Title>Tom &amp; &quot;Jerry&quot;&#10;</Title>\n\t</ProgramInformation>\n"))
        #expect(text.contains("<S t=\"0\" d=\"30720\" r=\"1\" />\n\t\t\t\t\t\t<S t=\"61952\" d=\"15360\" />"), "\(text)")
        #expect(text.contains("contentType=\"video\" startWithSAP=\"1\"") && text.contains("contentType=\"audio\" segmentAlignment"))
        #expect(text.contains("maxWidth=\"720\" maxHeight=\"576\" par=\"4:3\" lang=\"eng\">") && text.contains("scanType=\"interlaced\" sar=\"16:15\""))
        #expect(!text.contains("frameRate"))
    }

    /// xs:duration as ffmpeg writes it, with the decimals a time needs, rounded up to the µs.
    @Test func durationsAndDates() {
        let cases: [(MediaTime, String)] = [
            (MediaTime(value: 10, timescale: 1), "PT10.0S"), (MediaTime(value: 296, timescale: 100), "PT2.96S"),
            (MediaTime(value: 605, timescale: 10), "PT1M0.5S"), (MediaTime(value: 3600, timescale: 1), "PT1H0M0.0S"),
            (MediaTime(value: 1, timescale: 3), "PT0.333334S"), (MediaTime(value: 0, timescale: 1), "PT0.0S"),
            (MediaTime(value: 7_384_500, timescale: 1000), "PT2H3M4.5S"),
        ]
        for (t, text) in cases { #expect(DASHManifest.duration(t) == text) }
        #expect(DASHManifest.dateTime(0) == "1970-01-01T00:00:00.000Z")
        #expect(DASHManifest.dateTime(951_782_400_123_000) == "2000-02-29T00:00:00.123Z")
        #expect(DASHManifest.dateTime(-1000) == "1969-12-31T23:59:59.999Z")
    }

    /// Templates: ffmpeg's defaults, widths, $Time$, $$; what cannot be a name is refused with why.
    @Test func segmentNameTemplates() throws {
        #expect(DASHSegmentName.ffmpegSegment.name(representation: 1, number: 7) == "chunk-stream1-00007.m4s")
        #expect(DASHSegmentName.ffmpegInitialization.name(representation: 0) == "init-stream0.m4s")
        #expect(try DASHSegmentName("seg-$Time%08d$-$Number$-$$.m4s").name(representation: 0, number: 123456, time: 96256) == "seg-00096256-123456-$.m4s")
        let bad: [(String, String)] = [
            ("a$Number.m4s", "without its closing '$'"), ("$Bandwidth$.m4s", "$Bandwidth$, which is not written"),
            ("$Number%5d$.m4s", "the width format is %0Nd"), ("$Frame$.m4s", "expected $RepresentationID$, $Number$, $Time$"),
            ("a#$Number$.m4s", "'#'"), ("$RepresentationID$/$Number$.m4s", "'/'"), ("a\n$Number$", "a control character"), ("", "is empty"),
        ]
        for (t, reason) in bad {
            #expect(throws: DASHSegmentName.Invalid.self) { try DASHSegmentName(t) }
            do { _ = try DASHSegmentName(t) } catch { #expect(error.description.contains(reason), "\(t): \(error)") }
        }
        #expect(DASHSegmentName.ffmpegSegment.canName("chunk-stream0-00012.m4s"))
        #expect(DASHSegmentName.ffmpegSegment.canName("chunk-stream12-123456.m4s"))
        #expect(!DASHSegmentName.ffmpegSegment.canName("chunk-stream0-0001.m4s"))
        #expect(!DASHSegmentName.ffmpegSegment.canName("init-stream0.m4s"))
        #expect(try DASHSegmentName("$Number$.m4s").canName("1.m4s") && !DASHSegmentName("$Number$.m4s").canName("a.m4s"))
        #expect(DASHSegmentName.ffmpegSegment.hasRepresentationID && DASHSegmentName.ffmpegSegment.identifiesSegments)
        #expect(!DASHSegmentName.ffmpegInitialization.identifiesSegments)
    }

    /// RFC 6381 strings from the configurations the sample entries are written from.
    @Test func codecStrings() {
        let sps: [UInt8] = [0x67, 0x64, 0x00, 0x1F, 0xAC]
        #expect(DASHCodecString.of(.h264(H264Configuration(sps: [sps], pps: [[0x68]]))) == "avc1.64001f")
        #expect(DASHCodecString.of(Self.aac) == "mp4a.40.2")
        #expect(DASHCodecString.of(.aac(AACConfiguration(audioSpecificConfig: [0x2B, 0x92, 0x08, 0x00], sampleRate: 48000, channels: 2))) == "mp4a.40.5")
        #expect(DASHCodecString.of(.aac(AACConfiguration(audioSpecificConfig: [0xF8, 0xF0], sampleRate: 48000, channels: 2))) == "mp4a.40.39")
        #expect(DASHCodecString.of(.vpx(VPXConfiguration(codec: .vp9, profile: 2, level: 31, bitDepth: 10))) == "vp09.02.31.10")
        #expect(DASHCodecString.of(.opus(OpusConfiguration(channels: 2, preSkip: 312, inputSampleRate: 48000))) == "opus")
        #expect(DASHCodecString.of(.mp3) == nil && DASHCodecString.of(.vpx(VPXConfiguration(codec: .vp8))) == nil)
        // Main profile, Main tier level 3.1, progressive and frame-only constraint flags (x265's)
        #expect(DASHCodecString.hevc(profileTierLevel: [0x01, 0x60, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00, 0x00, 0x00, 93]) == "hvc1.1.6.L93.90")
        // Main 10, High tier level 5.1, no constraint flags
        #expect(DASHCodecString.hevc(profileTierLevel: [0x22, 0x20, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 153]) == "hvc1.2.4.H153")
        #expect(DASHCodecString.hevc(profileTierLevel: [0x41, 0x60, 0, 0, 0, 0xB0, 0, 0, 0, 0, 0x01, 120]).hasPrefix("hvc1.A1.6.L120.B0.0.0.0.0.1"))
    }

    /// One sample for the segmenter: (track, pts, dts, duration, key).
    typealias Event = (track: Int, pts: Int64, dts: Int64, duration: Int64, key: Bool)

    /// 10 s of 25 fps video (timescale 12800, decode delay of two frames, a key frame every 2 s)
    /// and AAC at 48 kHz (priming: first pts -1024, the last frame ends the sound at 10 s), in
    /// decode order, ties to the video.
    static func ffmpegExample() -> [Event] {
        var v: [Event] = []
        for k in 0..<250 {
            let pts = Int64(k) * 512
            v.append((track: 0, pts: pts, dts: pts - 1024, duration: 512, key: k % 50 == 0))
        }
        var a: [Event] = []
        for k in 0..<470 {
            let pts = Int64(k) * 1024 - 1024
            a.append((track: 1, pts: pts, dts: pts, duration: k == 469 ? 768 : 1024, key: true))
        }
        var out: [Event] = []
        while !v.isEmpty || !a.isEmpty {
            let videoFirst = a.isEmpty || (!v.isEmpty && v[0].dts * 48000 <= a[0].dts * 12800)
            out.append(videoFirst ? v.removeFirst() : a.removeFirst())
        }
        return out
    }

    /// ffmpeg's cut rule gives ffmpeg's timelines for the stream its own `-f dash -seg_duration 2`
    /// wrote (`ffmpeg -f lavfi -i testsrc2=rate=25 -f lavfi -i sine=sample_rate=48000 -t 10
    /// -c:v libx264 -g 50 -c:a aac -f dash -seg_duration 2 out.mpd`): video 5 × 2 s; audio cut
    /// with the video (its key frames decode 0.08 s before they show), then once more by its own
    /// 2 s once the video has no key frame left: 92160, 96256 × 4, 2816.
    @Test func segmenterFollowsFFmpeg() {
        var s = DASHSegmenter(segmentDuration: 2)
        _ = s.addTrack(isVideo: true, timescale: 12800)
        _ = s.addTrack(isVideo: false, timescale: 48000)
        var starts: [[Int64]] = [[], []]
        for e in Self.ffmpegExample() where s.place(track: e.track, pts: e.pts, dts: e.dts, duration: e.duration, isKeyFrame: e.key, bytes: 100) {
            starts[e.track].append(e.pts)
        }
        s.finish()
        #expect(s.segments(of: 0).map(\.duration) == [25600, 25600, 25600, 25600, 25600])
        #expect(s.segments(of: 0).map(\.time) == [0, 25600, 51200, 76800, 102400])
        #expect(s.segments(of: 1).map(\.duration) == [92160, 96256, 96256, 96256, 96256, 2816])
        #expect(s.segments(of: 1).map(\.time) == [0, 92160, 188416, 284672, 380928, 477184])
        #expect(starts[0] == [25600, 51200, 76800, 102400] && starts[1] == [92160, 188416, 284672, 380928, 477184])
    }

    /// Key frames every 1.48 s: the rule counts from the previous cut (2.96 s segments), where
    /// HLS's grid gives 2.96, 1.48, 1.56; audio on its own is cut every 2 s; a segment that passes
    /// the byte limit without a key frame ends at the next sample, marked as not starting with one.
    @Test func segmenterCountsFromThePreviousCutAndBoundsMemory() {
        var s = DASHSegmenter(segmentDuration: 2)
        _ = s.addTrack(isVideo: true, timescale: 25)
        for k in 0..<175 { _ = s.place(track: 0, pts: Int64(k), dts: Int64(k), duration: 1, isKeyFrame: k % 37 == 0, bytes: 10) }
        s.finish()
        #expect(s.segments(of: 0).map(\.duration) == [74, 74, 27])

        var audio = DASHSegmenter(segmentDuration: 2)
        _ = audio.addTrack(isVideo: false, timescale: 48000)
        for k in 0..<200 { _ = audio.place(track: 0, pts: Int64(k) * 1024 - 1024, dts: Int64(k) * 1024 - 1024, duration: 1024, isKeyFrame: true, bytes: 10) }
        audio.finish()
        #expect(audio.segments(of: 0).map(\.duration) == [95232, 96256, 12288])

        var big = DASHSegmenter(segmentDuration: 2, byteLimit: 1000)
        _ = big.addTrack(isVideo: true, timescale: 25)
        var cuts: [Int] = []
        for k in 0..<30 where big.place(track: 0, pts: Int64(k), dts: Int64(k), duration: 0, isKeyFrame: k == 0, bytes: 300) { cuts.append(k) }
        big.finish()
        #expect(cuts == [4, 8, 12, 16, 20, 24, 28])
        #expect(big.segments(of: 0).map(\.startsWithKeyFrame) == [true] + Array(repeating: false, count: 7))
        #expect(big.segments(of: 0).map(\.duration) == [4, 4, 4, 4, 4, 4, 4, 2], "duration 0: the previous dts step, as ffmpeg guesses")
    }

    /// `.onRequest`: the muxer cuts where it is asked, key frame or not, and nowhere else.
    @Test func muxerCutsOnRequestOnly() throws {
        let c = HLSPlaylistTests.Collector()
        let m = try MP4Muxer(path: "x.mpd", fragmentsTo: c, options: MP4MuxerOptions(fragmentDuration: 0.1, fragmentCut: .onRequest))
        let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: Self.vp9)
        for k in 0..<100 { try m.append(MP4Sample(data: [1, 2], pts: Int64(k), isSync: k % 10 == 0), to: t, startingFragment: k == 0 || k == 33 || k == 60) }
        try m.finish()
        #expect(c.fragments.map { $0.info.duration.seconds } == [1.32, 1.08, 1.6])
        #expect(c.fragments.map(\.info.independent) == [true, false, true])
    }

    /// Samples of the example, fed to a writer in folder `dir` in the order given.
    static func write(_ events: [Event], to w: DASHWriter, tracks: [MP4TrackID]) throws {
        for e in events {
            try w.append(MP4Sample(data: Array(repeating: UInt8(e.track), count: 10), pts: e.pts, dts: e.dts, duration: e.duration,
                                   isSync: e.key, configuration: e.track == 0 ? Self.vp9 : Self.aac), to: tracks[e.track])
        }
    }

    static func writer(in dir: TempDir, kind: DASHManifest.Kind = .static) throws -> (DASHWriter, [MP4TrackID]) {
        let w = try DASHWriter(manifestPath: dir.file("out.mpd"), options: DASHWriter.Options(kind: kind))
        let v = try w.addTrack(for: .encodedVideo(EncodedVideoFormat(codec: .vp9, width: 64, height: 48, frameRate: Rational(25, 1), timeBase: Rational(1, 12800))),
                               configuration: nil)
        let a = try w.addTrack(for: .encodedAudio(EncodedAudioFormat(codec: .aac, sampleRate: 48000, channels: 2)), configuration: nil)
        return (w, [v, a])
    }

    /// The writer puts one muxer per representation behind the segmenter: files named as
    /// ffmpeg names them, one per timeline row; samples that come track by track (all video,
    /// then all audio) are put in decode order first, so the result is the same.
    @Test func writerFilesAndManifest() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (w, tracks) = try Self.writer(in: dir)
        #expect(w.timescale(of: tracks[0]) == 12800 && w.timescale(of: tracks[1]) == 48000)
        let events = Self.ffmpegExample()
        try Self.write(events.filter { $0.track == 0 } + events.filter { $0.track == 1 }, to: w, tracks: tracks)
        try w.finish()
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["chunk-stream0-00001.m4s", "chunk-stream0-00002.m4s", "chunk-stream0-00003.m4s", "chunk-stream0-00004.m4s",
                          "chunk-stream0-00005.m4s", "chunk-stream1-00001.m4s", "chunk-stream1-00002.m4s", "chunk-stream1-00003.m4s",
                          "chunk-stream1-00004.m4s", "chunk-stream1-00005.m4s", "chunk-stream1-00006.m4s",
                          "init-stream0.m4s", "init-stream1.m4s", "out.mpd"])
        let text = try String(contentsOfFile: dir.file("out.mpd"), encoding: .utf8)
        #expect(text.contains("<S t=\"0\" d=\"25600\" r=\"4\" />") && text.contains("<S t=\"0\" d=\"92160\" />\n\t\t\t\t\t\t<S d=\"96256\" r=\"3\" />\n\t\t\t\t\t\t<S d=\"2816\" />"), "\(text)")
        #expect(text.contains("codecs=\"vp09.00.10.08\"") && text.contains("codecs=\"mp4a.40.2\"") && text.contains("mediaPresentationDuration=\"PT10.0S\""))
        #expect(w.segmentCounts == [5, 6] && w.state == .completed)
        // segment 2 of the audio: styp, moof with its 94 frames, mdat
        let seg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("chunk-stream1-00002.m4s"))))
        #expect(Array(seg[4..<8]) == Array("styp".utf8) && Array(seg[28..<32]) == Array("moof".utf8))
        #expect(seg.suffix(940).allSatisfy { $0 == 1 } && Array(seg[seg.count - 944..<seg.count - 940]) == Array("mdat".utf8))
    }

    /// Dynamic: the MPD is in place, dynamic and listing only whole segments, while the writer
    /// runs; a failure keeps it and them; cancelling removes everything, the MPD too.
    @Test func dynamicWriterKeepsWhatItListsOnFailureAndCancelRemovesAll() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let (w, tracks) = try Self.writer(in: dir, kind: .dynamic)
        let events = Self.ffmpegExample()
        try Self.write(Array(events.prefix(400)), to: w, tracks: tracks)
        let text = try String(contentsOfFile: dir.file("out.mpd"), encoding: .utf8)
        #expect(text.contains("type=\"dynamic\"") && text.contains("availabilityStartTime=\""))
        let listed = text.components(separatedBy: "<S ").count - 1
        #expect(listed >= 2)
        // a sample out of decode order fails the video muxer
        #expect(throws: MP4MuxerError.self) {
            try w.append(MP4Sample(data: [1], pts: 0, dts: 0, duration: 512, isSync: true), to: tracks[0])
            try w.append(MP4Sample(data: [1], pts: 0, dts: -1024, duration: 1024, isSync: true), to: tracks[1])
        }
        #expect(w.state == .failed)
        #expect(w.outcome?.hasPrefix("kept '\(dir.file("out.mpd"))' (dynamic) with the ") == true, "\(w.outcome ?? "")")
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(kept.contains("out.mpd") && kept.count == 3 + w.segmentCounts.reduce(0, +), "\(kept)")

        let other = try TempDir()
        defer { other.remove() }
        let (c, t2) = try Self.writer(in: other, kind: .dynamic)
        try Self.write(Array(events.prefix(400)), to: c, tracks: t2)
        #expect(FileManager.default.fileExists(atPath: other.file("out.mpd")))
        c.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path).isEmpty)
        #expect(c.outcome?.hasPrefix("removed the ") == true)
    }

    /// A static writer that fails removes every file it wrote, and the MPD of an earlier run at
    /// its path, whose segments it replaced; two representations need $RepresentationID$.
    @Test func staticWriterFailureRemovesItsFiles() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        try "old".write(toFile: dir.file("out.mpd"), atomically: true, encoding: .utf8)
        let (w, tracks) = try Self.writer(in: dir)
        try Self.write(Array(Self.ffmpegExample().prefix(400)), to: w, tracks: tracks)
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.mpd")))
        #expect(throws: MP4MuxerError.self) {
            try w.append(MP4Sample(data: [1], pts: 0, dts: -5000, duration: 1024, isSync: true), to: tracks[1])
            try w.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        #expect(w.outcome?.hasPrefix("removed the ") == true, "\(w.outcome ?? "")")

        let one = try DASHWriter(manifestPath: dir.file("o.mpd"),
                                 options: DASHWriter.Options(initialization: try DASHSegmentName("init.m4s"), segmentName: try DASHSegmentName("$Number$.m4s")))
        _ = try one.addTrack(for: .encodedAudio(EncodedAudioFormat(codec: .aac, sampleRate: 48000, channels: 2)), configuration: nil)
        #expect(throws: MP4MuxerError.self) {
            _ = try one.addTrack(for: .encodedAudio(EncodedAudioFormat(codec: .aac, sampleRate: 48000, channels: 2)), configuration: nil)
        }
        one.cancel()
    }
}
