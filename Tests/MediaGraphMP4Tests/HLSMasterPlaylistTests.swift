import Testing
import MediaGraphCore
import MediaGraphMP4

/// A master playlist's text and the bit rates of RFC 8216 4.1, by hand-computed numbers.
@Suite struct HLSMasterPlaylistTests {
    func segment(_ seconds: Double, _ bytes: Int) -> HLSPlaylist.Segment {
        .init(uri: "s.m4s", duration: MediaTime(value: Int64(seconds * 90000), timescale: 90000), independent: true, bytes: bytes)
    }

    /// Target 2 s: runs of 1 to 3 s count. 2 s/1000 B, 2 s/3000 B, 1 s/2000 B: single segments
    /// 4000, 12000, 16000 bit/s, the last two together 40000/3 (rounded up); the first two last
    /// 4 s, too long. Average: 48000 bits over 5 s.
    @Test func peakAndAverageSegmentBitRates() {
        var p = HLSPlaylist(kind: .vod, mapURI: "i.mp4")
        #expect(p.peakBitRate == nil && p.averageBitRate == nil)
        p.segments = [segment(2, 1000), segment(2, 3000), segment(1, 2000)]
        #expect(p.targetDuration == 2)
        #expect(p.peakBitRate == 16000)
        #expect(p.averageBitRate == 9600)
        p.segments = [segment(2, 1000), segment(0.9, 3000)]
        #expect(p.peakBitRate == 11035, "2.9 s, 4000 B: 32000/2.9 rounded up; 0.9 s alone (26667 bit/s) is under half the target")
        p.segments = [segment(0.3, 3)]
        #expect(p.targetDuration == 1 && p.peakBitRate == 80, "no run of 0.5 to 1.5 s: the single segment's rate")
    }

    @Test func masterText() {
        var m = HLSMasterPlaylist()
        m.independentSegments = true
        m.audio = [.init(uri: "s_audio.m3u8", name: "eng", language: "eng", isDefault: true),
                   .init(uri: "s_audio1.m3u8", name: "audio1", isDefault: false)]
        m.variants = [.init(uri: "s_video.m3u8", bandwidth: 2_500_000, averageBandwidth: 2_000_000, codecs: ["avc1.64001f", "mp4a.40.2"],
                            width: 1280, height: 720, frameRate: Rational(30000, 1001)),
                      .init(uri: "s_video1.m3u8", bandwidth: 700_000, codecs: ["hvc1.1.6.L90.90"], width: 640, height: 360)]
        #expect(m.text == """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="eng",LANGUAGE="eng",DEFAULT=YES,AUTOSELECT=YES,URI="s_audio.m3u8"
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="audio1",DEFAULT=NO,AUTOSELECT=YES,URI="s_audio1.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=2500000,AVERAGE-BANDWIDTH=2000000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=29.970,AUDIO="audio"
        s_video.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=700000,CODECS="hvc1.1.6.L90.90",RESOLUTION=640x360,AUDIO="audio"
        s_video1.m3u8

        """)
        m.audio = []
        m.independentSegments = false
        m.variants[0].frameRate = Rational(25, 1)
        #expect(m.text.contains("FRAME-RATE=25.000\n") && !m.text.contains("AUDIO") && !m.text.contains("INDEPENDENT"), "\(m.text)")
    }

    /// Names of renditions never meet: `video_10.m4s` is not `video1_0.m4s`; only the master's
    /// own name can be a media playlist's.
    @Test func renditionNames() {
        let a = HLSRenditionNames(prefix: "s", port: "video"), b = HLSRenditionNames(prefix: "s", port: "video1")
        #expect([a.playlist, a.initialization, a.segmentPrefix] == ["s_video.m3u8", "s_video_init.mp4", "s_video_"])
        #expect(a.segmentPrefix + "10.m4s" != b.segmentPrefix + "0.m4s")
        #expect(HLSRenditionNames.collision(masterName: "s_video1.m3u8", prefix: "s", ports: ["video", "video1"]) == "video1")
        #expect(HLSRenditionNames.collision(masterName: "s.m3u8", prefix: "s", ports: ["video", "video1", "audio"]) == nil)
    }
}
