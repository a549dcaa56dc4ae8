import Foundation
import Testing
import MediaGraphCore
import MediaGraphMP4

/// The playlist text and the muxer's fragments-to-a-receiver mode, without files or encoders.
@Suite struct HLSPlaylistTests {
    /// Collects what the muxer hands out.
    final class Collector: MP4FragmentReceiver {
        var initialization: [UInt8] = []
        var fragments: [(header: [UInt8], media: [UInt8], info: MP4FragmentInfo)] = []
        var finished = false
        var abandoned: Bool?
        func receiveInitialization(_ bytes: [UInt8]) throws { initialization = bytes }
        func receiveFragment(header: [UInt8], media: [UInt8], info: MP4FragmentInfo) throws { fragments.append((header, media, info)) }
        func finishFragments() throws { finished = true }
        func abandon(cancelled: Bool) { abandoned = cancelled }
    }

    let vp9 = CodecConfiguration.vpx(VPXConfiguration(codec: .vp9))

    /// 25 fps, a key frame every `keyint` frames, 2 s grid: the receiver gets ftyp + moov, then
    /// fragments cut where ffmpeg's hls_time cuts, each styp + moof + mdat with its duration.
    @Test func gridCutsAndFragmentPieces() throws {
        let c = Collector()
        let m = try MP4Muxer(path: "x.m3u8", fragmentsTo: c, options: MP4MuxerOptions(fragmentDuration: 2, fragmentCut: .grid))
        let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
        for k in 0..<175 { try m.append(MP4Sample(data: [UInt8(k & 0xFF), 1, 2], pts: Int64(k), isSync: k % 37 == 0), to: t) }
        try m.finish()
        #expect(Array(c.initialization[4..<8]) == Array("ftyp".utf8))
        #expect(c.fragments.map { $0.info.duration.seconds } == [2.96, 1.48, 2.56], "key frames at 0, 37, 74, 111, 148: cuts at the first at or after 50, 100, 150 frames")
        #expect(c.fragments.map(\.info.sequence) == [1, 2, 3])
        #expect(c.fragments.allSatisfy { $0.info.independent })
        for f in c.fragments {
            #expect(Array(f.header[4..<8]) == Array("styp".utf8) && Array(f.header[28..<32]) == Array("moof".utf8))
            #expect(Array(f.header.suffix(4)) == Array("mdat".utf8))
            #expect(f.media.count == 3 * Int((f.info.duration.seconds * 25).rounded()))
        }
        #expect(c.finished && c.abandoned == nil)
    }

    /// A failure tells the receiver (not cancelled); dropping a running muxer cancels.
    @Test func receiverHearsOfFailureAndCancel() throws {
        let c = Collector()
        let m = try MP4Muxer(path: "x.m3u8", fragmentsTo: c)
        let t = try m.addVideoTrack(codec: .vp9, width: 64, height: 64, timescale: 25, configuration: vp9)
        try m.append(MP4Sample(data: [1], pts: 1, isSync: true), to: t)
        #expect(throws: MP4MuxerError.self) { try m.append(MP4Sample(data: [1], pts: 0, isSync: false), to: t) }
        #expect(c.abandoned == false)
        let d = Collector()
        do { _ = try MP4Muxer(path: "y.m3u8", fragmentsTo: d) }
        #expect(d.abandoned == true)
    }

    @Test func playlistText() {
        var p = HLSPlaylist(kind: .event, mapURI: "s_init.mp4")
        p.segments = [.init(uri: "s0.m4s", duration: MediaTime(value: 180_000, timescale: 90000), independent: true),
                      .init(uri: "s1.m4s", duration: MediaTime(value: 180_090, timescale: 90000), independent: true)]
        #expect(p.targetDuration == 2, "2.001 s rounds to the nearest, as ffmpeg's lrint")
        #expect(p.text == """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:0
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-MAP:URI="s_init.mp4"
        #EXTINF:2.000000,
        s0.m4s
        #EXTINF:2.001000,
        s1.m4s

        """)
        let ties = [225_000, 235_000, 315_000, 45_000].map { v in
            var t = HLSPlaylist(kind: .vod, mapURI: nil)
            t.segments = [.init(uri: "t.ts", duration: MediaTime(value: Int64(v), timescale: 90000), independent: true)]
            return t.targetDuration
        }
        #expect(ties == [2, 3, 4, 1], "2.5 s ties to 2, 2.61 s is 3, 3.5 s ties to 4 (as lrint); 0.5 s gives 1, not ffmpeg's 0")
        p.segments.removeLast()
        p.segments[0].independent = false
        p.ended = true
        #expect(p.targetDuration == 2)
        #expect(!p.text.contains("INDEPENDENT") && p.text.hasSuffix("s0.m4s\n#EXT-X-ENDLIST\n"))
        #expect(HLSPlaylist.unusableCharacter(inFileName: "my stream-1") == nil)
        #expect(["a\"b", "a#b", "a?b", "a%b", "a/b", "a\nb"].map { HLSPlaylist.unusableCharacter(inFileName: $0) } == ["\"", "#", "?", "%", "/", "\n"])
    }
}
