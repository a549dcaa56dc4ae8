import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// Several representations of one kind: the AdaptationSets they are grouped in, the set's
/// attributes (segmentAlignment only when true, maxWidth/maxHeight, frame rates, par, lang),
/// ffmpeg's cut rule with two video tracks, and the writer refusing pictures of two shapes.
@Suite struct DASHLadderManifestTests {
    static func video(_ id: Int, _ width: Int, _ height: Int, rate: Rational? = Rational(30, 1), timescale: Int64 = 15360,
                      segments: [Int64] = [30720, 30720, 15360], start: Int64 = 0) -> DASHManifest.Representation {
        var t = start
        let s = segments.map { d in defer { t += d }; return DASHSegment(time: t, duration: d) }
        return DASHManifest.Representation(id: id, media: .video(width: width, height: height, frameRate: rate, sampleAspect: Rational(1, 1), interlaced: false),
                                           codecs: "avc1.64001f", bandwidth: 1000 * width, timescale: timescale,
                                           initialization: .ffmpegInitialization, segmentName: .ffmpegSegment, segments: s)
    }

    static func audio(_ id: Int, language: String? = nil) -> DASHManifest.Representation {
        DASHManifest.Representation(id: id, media: .audio(sampleRate: 48000, channels: 2), codecs: "mp4a.40.2", bandwidth: 128_000,
                                    language: language, timescale: 48000, initialization: .ffmpegInitialization, segmentName: .ffmpegSegment,
                                    segments: [DASHSegment(time: 0, duration: 96000), DASHSegment(time: 96000, duration: 144000)])
    }

    /// Two video representations in one AdaptationSet, as ffmpeg's `-adaptation_sets
    /// "id=0,streams=v id=1,streams=a"` writes them: ids 0 and 1, the audio's set 1 with
    /// representation 2; the largest size, one frame rate and par on the set; segmentAlignment
    /// because the timelines start together; no bitstreamSwitching (each has its own init).
    @Test func ladderText() {
        let m = DASHManifest(kind: .static, representations: [Self.video(0, 1280, 720), Self.video(1, 640, 360), Self.audio(2)])
        let text = m.text
        #expect(text.contains("""
        \t<Period id="0" start="PT0.0S">
        \t\t<AdaptationSet id="0" contentType="video" startWithSAP="1" segmentAlignment="true" frameRate="30/1" maxWidth="1280" maxHeight="720" par="16:9">
        \t\t\t<Representation id="0" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="1280000" width="1280" height="720" sar="1:1">
        \t\t\t\t<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
        \t\t\t\t\t<SegmentTimeline>
        \t\t\t\t\t\t<S t="0" d="30720" r="1" />
        \t\t\t\t\t\t<S d="15360" />
        \t\t\t\t\t</SegmentTimeline>
        \t\t\t\t</SegmentTemplate>
        \t\t\t</Representation>
        \t\t\t<Representation id="1" mimeType="video/mp4" codecs="avc1.64001f" bandwidth="640000" width="640" height="360" sar="1:1">
        \t\t\t\t<SegmentTemplate timescale="15360" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="1">
        \t\t\t\t\t<SegmentTimeline>
        \t\t\t\t\t\t<S t="0" d="30720" r="1" />
        \t\t\t\t\t\t<S d="15360" />
        \t\t\t\t\t</SegmentTimeline>
        \t\t\t\t</SegmentTemplate>
        \t\t\t</Representation>
        \t\t</AdaptationSet>
        \t\t<AdaptationSet id="1" contentType="audio" startWithSAP="1" segmentAlignment="true" bitstreamSwitching="true">
        \t\t\t<Representation id="2" mimeType="audio/mp4" codecs="mp4a.40.2" bandwidth="128000" audioSamplingRate="48000">
        """), "\(text)")
        #expect(m.adaptationSets.map { $0.representations.map(\.id) } == [[0, 1], [2]])
        #expect(m.maxSegmentDuration == MediaTime(value: 144000, timescale: 48000))
        // the largest of each side, wherever it is (here neither is the first representation's)
        let sizes = DASHManifest(kind: .static, representations: [Self.video(0, 640, 360), Self.video(1, 1920, 1080), Self.video(2, 1280, 720)]).text
        #expect(sizes.contains("maxWidth=\"1920\" maxHeight=\"1080\" par=\"16:9\">"), "\(sizes)")
    }

    /// segmentAlignment="true" only when segment k starts at one time in every representation:
    /// not with a start moved by a frame, nor (once complete) with a segment more in one;
    /// while a dynamic MPD lists fewer of one, the ones listed in both are compared; the same
    /// time in another timescale is the same time.
    @Test func segmentAlignmentOnlyWhenTrue() {
        func aligned(_ reps: [DASHManifest.Representation], _ kind: DASHManifest.Kind = .static) -> Bool {
            DASHManifest(kind: kind, representations: reps).text.contains("contentType=\"video\" startWithSAP=\"1\" segmentAlignment=\"true\"")
        }
        #expect(aligned([Self.video(0, 640, 360), Self.video(1, 320, 180)]))
        #expect(!aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, segments: [30720, 31232, 14848])]))
        #expect(!aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, segments: [46080, 15360, 15360])]))
        #expect(!aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, segments: [30720, 30720])]))
        #expect(aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, segments: [30720, 30720])], .dynamic))
        #expect(!aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, segments: [15360, 15360])], .dynamic))
        #expect(aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, timescale: 90000, segments: [180000, 180000, 90000])]))
        #expect(!aligned([Self.video(0, 640, 360), Self.video(1, 320, 180, timescale: 90000, segments: [180001, 179999, 90000])]))
        // one representation is aligned with itself, as before
        #expect(aligned([Self.video(0, 640, 360, segments: [1, 2, 3])]))
        #expect(DASHAdaptationSet(id: 0, representations: [Self.video(0, 640, 360), Self.video(1, 320, 180, start: 512)]).segmentsAligned(complete: false) == false)
    }

    /// Frame rates as ffmpeg writes them: different ones give maxFrameRate on the set and
    /// frameRate on each representation; an unknown one leaves the set without either.
    @Test func frameRatesOfASet() {
        let differ = DASHManifest(kind: .static, representations: [Self.video(0, 1280, 720, rate: Rational(60, 1)), Self.video(1, 640, 360)]).text
        #expect(differ.contains("maxFrameRate=\"60/1\" maxWidth=\"1280\" maxHeight=\"720\" par=\"16:9\">"), "\(differ)")
        #expect(differ.contains("height=\"720\" sar=\"1:1\" frameRate=\"60/1\">") && differ.contains("height=\"360\" sar=\"1:1\" frameRate=\"30/1\">"), "\(differ)")
        let unknown = DASHManifest(kind: .static, representations: [Self.video(0, 1280, 720, rate: nil), Self.video(1, 640, 360)]).text
        #expect(unknown.contains("bitstreamSwitching") == false && unknown.contains("segmentAlignment=\"true\" maxWidth=\"1280\""), "\(unknown)")
    }

    /// Audio of one language is one set (bit rates to switch between), each language a set of
    /// its own with its lang; the sets keep the order of their first representation.
    @Test func audioSetsByLanguage() {
        let m = DASHManifest(kind: .static, representations: [Self.audio(0, language: "eng"), Self.video(1, 640, 360), Self.audio(2, language: "fra"),
                                                              Self.audio(3, language: "eng"), Self.audio(4)])
        #expect(m.adaptationSets.map { $0.representations.map(\.id) } == [[0, 3], [1], [2], [4]])
        #expect(m.adaptationSets.map(\.id) == [0, 1, 2, 3])
        let text = m.text
        #expect(text.contains("<AdaptationSet id=\"0\" contentType=\"audio\" startWithSAP=\"1\" segmentAlignment=\"true\" lang=\"eng\">"), "\(text)")
        #expect(text.contains("<AdaptationSet id=\"2\" contentType=\"audio\" startWithSAP=\"1\" segmentAlignment=\"true\" bitstreamSwitching=\"true\" lang=\"fra\">"), "\(text)")
        #expect(text.contains("<AdaptationSet id=\"3\" contentType=\"audio\" startWithSAP=\"1\" segmentAlignment=\"true\" bitstreamSwitching=\"true\">"), "\(text)")
    }

    /// ffmpeg's rule with two videos (dashenc's dash_flush): each video is cut at its own key
    /// frames (every 2 s: 2 s segments; every 3 s: 3, 3, 3, 1), the other video is not cut with
    /// it, and the audio follows whichever video cuts first — here the 2 s one, so the audio's
    /// timeline is the one of the single-video example (DASHManifestTests.segmenterFollowsFFmpeg).
    @Test func segmenterCutsEachVideoAtItsOwnKeyFrames() {
        var s = DASHSegmenter(segmentDuration: 2)
        _ = s.addTrack(isVideo: true, timescale: 12800)
        _ = s.addTrack(isVideo: false, timescale: 48000)
        _ = s.addTrack(isVideo: true, timescale: 12800)
        var events = DASHManifestTests.ffmpegExample()
        // the second video: the first one's frames, key frames every 3 s, after the first on a tie
        var merged: [DASHManifestTests.Event] = []
        for e in events {
            merged.append(e)
            if e.track == 0 { merged.append((track: 2, pts: e.pts, dts: e.dts, duration: e.duration, key: e.pts % (3 * 12800) == 0)) }
        }
        events = merged
        for e in events { _ = s.place(track: e.track, pts: e.pts, dts: e.dts, duration: e.duration, isKeyFrame: e.key, bytes: 100) }
        s.finish()
        #expect(s.segments(of: 0).map(\.duration) == [25600, 25600, 25600, 25600, 25600])
        #expect(s.segments(of: 2).map(\.duration) == [38400, 38400, 38400, 12800])
        #expect(s.segments(of: 1).map(\.duration) == [92160, 96256, 96256, 96256, 96256, 2816])
        let m = DASHManifest(kind: .static, representations: [0, 2].map { k in
            DASHManifest.Representation(id: k, media: .video(width: 64, height: 48, frameRate: nil, sampleAspect: Rational(1, 1), interlaced: false),
                                        codecs: "vp09", bandwidth: nil, timescale: 12800, initialization: .ffmpegInitialization,
                                        segmentName: .ffmpegSegment, segments: s.segments(of: k))
        })
        #expect(!m.text.contains("segmentAlignment"))
    }

    /// The video representations share a set, which has one picture aspect ratio: a writer
    /// refuses a second video of another shape (the same shape at another size is a ladder).
    @Test func writerRefusesTwoShapes() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let w = try DASHWriter(manifestPath: dir.file("out.mpd"))
        func video(_ width: Int, _ height: Int) -> MediaFormat {
            .encodedVideo(EncodedVideoFormat(codec: .vp9, width: width, height: height, frameRate: Rational(25, 1), timeBase: Rational(1, 12800)))
        }
        _ = try w.addTrack(for: video(1280, 720), configuration: nil)
        _ = try w.addTrack(for: video(640, 360), configuration: nil)
        #expect(throws: MP4MuxerError.self) { _ = try w.addTrack(for: video(640, 480), configuration: nil) }
        do { _ = try w.addTrack(for: video(640, 480), configuration: nil) } catch {
            #expect("\(error)".contains("representation 2 has the picture aspect ratio 4:3 and representation 0 16:9"), "\(error)")
        }
        w.cancel()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
