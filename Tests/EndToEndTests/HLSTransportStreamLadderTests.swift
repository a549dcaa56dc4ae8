#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `hls` sink with several video inputs and `segment-type: mpegts` (a bit-rate ladder of
/// MPEG-TS renditions) against ffmpeg 5.1's own `-f hls -var_stream_map` over the same packets:
/// every segment file byte for byte, the media playlists line for line; ffmpeg's HLS demuxer
/// and ffprobe reading the master; a live window sliding every rendition as ffmpeg's does.
@Suite struct HLSTransportStreamLadderTests {
    /// ffmpeg's TS ladder of `inputs` (each mapped as `maps` says), what the brief of
    /// Docs/hls.md states: variants 0 and 1 the videos, 2 the audio, one audio group.
    /// Files: dir/ref_N.m3u8, dir/ref_N_K.ts, dir/ref.m3u8.
    static func ffmpegLadder(_ inputs: [String], maps: [String], in dir: String, extra: [String] = ["-hls_playlist_type", "vod"]) throws {
        var args = ["-v", "error"]
        for i in inputs { args += ["-i", i] }
        for m in maps { args += ["-map", m] }
        args += ["-c", "copy", "-f", "hls", "-hls_segment_type", "mpegts", "-hls_time", "2"] + extra
        args += ["-var_stream_map", "v:0,agroup:aud v:1,agroup:aud a:0,agroup:aud", "-master_pl_name", "ref.m3u8",
                 "-hls_segment_filename", dir + "/ref_%v_%d.ts", dir + "/ref_%v.m3u8"]
        let r = try CLI.run("ffmpeg", args)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }

    /// Our port → ffmpeg's variant number in `ffmpegLadder`.
    static let variants = ["video": 0, "video1": 1, "audio": 2]

    /// A media playlist's lines without #EXT-X-INDEPENDENT-SEGMENTS (which ours states and
    /// ffmpeg's writes only when asked), segment URIs renamed from ours to ffmpeg's.
    static func comparable(_ playlist: String, port: String) throws -> [String] {
        let ours = "out_\(port)_", theirs = "ref_\(variants[port]!)_"
        return try HLSSinkTests.lines(playlist).filter { $0 != "#EXT-X-INDEPENDENT-SEGMENTS" }.map {
            $0.hasPrefix(ours) ? theirs + $0.dropFirst(ours.count) : $0
        }
    }

    /// Every listed segment of ours equals ffmpeg's of the same number, byte for byte.
    static func expectSameSegments(_ dir: String, port: String) throws {
        let listed = HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/out_\(port).m3u8")).map(\.uri)
        #expect(!listed.isEmpty, "\(port)")
        for uri in listed {
            let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + uri))
            let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/ref_\(variants[port]!)_" + uri.dropFirst("out_\(port)_".count)))
            #expect(!a.isEmpty && a == b, "\(uri): first difference: \(MPEGTSSinkTests.firstDifference(a, b))")
        }
    }

    /// Three files made by ffmpeg: 320x240 and 160x120 H.264 (30 fps, B-frames, a key frame
    /// every second) and AAC 48 kHz, `seconds` long, in dir.
    static func sources(in dir: String, seconds: Int = 5) throws {
        for (name, size) in [("hd", "320x240"), ("sd", "160x120")] {
            let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=\(size):rate=30", "-t", "\(seconds)",
                                           "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0",
                                           dir + "/\(name).mp4"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let a = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=r=48000:f=440", "-t", "\(seconds)", "-c:a", "aac", dir + "/a.mp4"])
        #expect(a.status == 0, "\(a.stderr)")
    }

    /// filesrc of each file into `hls.video`, `hls.video1`, `hls.audio` (MPEG-TS segments, dir/out.m3u8).
    static func copyLadder(in dir: String, params: String = "") throws -> CLI.Result {
        let g = CLI.writeGraph("""
        { "nodes": { "hd": { "type": "filesrc", "params": { "path": "hd.mp4" } },
                     "sd": { "type": "filesrc", "params": { "path": "sd.mp4" } },
                     "a": { "type": "filesrc", "params": { "path": "a.mp4" } },
                     "hls": { "type": "hls", "params": { "path": "out.m3u8", "segment-type": "mpegts"\(params) } } },
          "chains": [["hd.video", "hls.video"], ["sd.video", "hls.video1"], ["a.audio", "hls.audio"]] }
        """, in: dir)
        return try CLI.mediagraph("run", "--quiet", g)
    }

    /// Stream copy of two H.264 files and an AAC one: every rendition's segments are ffmpeg's
    /// `-var_stream_map` ladder's byte for byte (the audio rendition moved with the video's
    /// B-frame delay, as ffmpeg's hls muxer moves all its streams by one offset), each media
    /// playlist is ffmpeg's line for line, and the master is version 3 as ffmpeg's, with the
    /// audio group, ffmpeg's RESOLUTION, and BANDWIDTH / AVERAGE-BANDWIDTH the test computes
    /// itself from the .ts sizes and #EXTINF lines (video + audio).
    @Test func segmentsAndPlaylistsAreFFmpegs() throws {
        let dir = CLI.tempDir()
        try Self.sources(in: dir)
        let r = try Self.copyLadder(in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegLadder([dir + "/hd.mp4", dir + "/sd.mp4", dir + "/a.mp4"], maps: ["0:v", "1:v", "2:a"], in: dir)
        for (port, n) in Self.variants {
            let ours = try Self.comparable(dir + "/out_\(port).m3u8", port: port), theirs = try HLSSinkTests.lines(dir + "/ref_\(n).m3u8")
            #expect(ours == theirs, "\(port) ours:\n\(ours.joined(separator: "\n"))\nffmpeg's:\n\(theirs.joined(separator: "\n"))")
            #expect(HLSSinkTests.segments(theirs).count == 3, "\(port): \(theirs)")
            try Self.expectSameSegments(dir, port: port)
        }
        let master = try HLSSinkTests.lines(dir + "/out.m3u8")
        let theirs = try HLSSinkTests.lines(dir + "/ref.m3u8")
        #expect(master.prefix(2) == theirs.prefix(2) && master[1] == "#EXT-X-VERSION:3", "\(master)\n\(theirs)")
        let media = master.filter { $0.hasPrefix("#EXT-X-MEDIA:") }.map(HLSLadderTests.attributes)
        #expect(media.count == 1 && media.first?["URI"] == "out_audio.m3u8" && media.first?["TYPE"] == "AUDIO", "\(master)")
        let infs = master.indices.filter { master[$0].hasPrefix("#EXT-X-STREAM-INF:") }
        #expect(infs.map { master[$0 + 1] } == ["out_video.m3u8", "out_video1.m3u8"], "\(master)")
        let theirInfs = theirs.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.map(HLSLadderTests.attributes)
        let audio = try HLSLadderTests.bitRates(dir + "/out_audio.m3u8")
        for (k, i) in infs.enumerated() {
            let a = HLSLadderTests.attributes(master[i])
            let rates = try HLSLadderTests.bitRates(dir + "/" + master[i + 1])
            #expect(a["BANDWIDTH"] == String(rates.peak + audio.peak) && a["AVERAGE-BANDWIDTH"] == String(rates.average + audio.average), "\(a)")
            #expect(a["RESOLUTION"] == theirInfs[k]["RESOLUTION"] && a["AUDIO"] == media.first?["GROUP-ID"], "\(a) \(theirInfs[k])")
            #expect(a["CODECS"]?.hasPrefix("avc1.64") == true && a["CODECS"]?.hasSuffix(",mp4a.40.2") == true, "\(a)")
        }
    }

    /// Our encoders' ladder with MPEG-TS segments: ffmpeg reads the master through to the end
    /// without a message (`-map 0 -f null`), and ffprobe reads every variant's playlist: all 150
    /// pictures, each starting segment a key frame, and the audio rendition's sound.
    @Test func ffmpegReadsTheMasterWithoutAMessage() throws {
        let dir = CLI.tempDir()
        let r = try HLSLadderTests.encode(in: dir, params: #", "segment-type": "mpegts""#)
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        let f = try CLI.run("ffmpeg", ["-v", "warning", "-i", dir + "/out.m3u8", "-map", "0", "-f", "null", "-"])
        #expect(f.status == 0 && f.stderr.isEmpty, "\(f.stderr)")
        for (port, width) in [("video", 320), ("video1", 160)] {
            let p = try CLI.run("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,width,nb_read_frames",
                                            "-of", "csv=p=0", dir + "/out_\(port).m3u8"])
            // ffprobe lists the stream under the playlist's program and again on its own
            #expect(p.status == 0 && p.stderr.isEmpty && Set(p.out.split(separator: "\n")) == ["video,\(width),150"], "\(port): \(p.out) \(p.stderr)")
            for s in HLSSinkTests.segments(try HLSSinkTests.lines(dir + "/out_\(port).m3u8")) {
                let first = try MatroskaSinkTests.ffprobe(["-show_entries", "packet=flags", "-read_intervals", "%+#1", "-of", "csv=p=0", dir + "/" + s.uri])
                #expect(first.hasPrefix("K"), "\(s.uri) starts with \(first)")
            }
        }
        let a = try CLI.run("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=codec_type,nb_read_packets", "-of", "csv=p=0", dir + "/out_audio.m3u8"])
        #expect(a.status == 0 && a.stderr.isEmpty && a.out.hasPrefix("audio,"), "\(a.out) \(a.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/out_video_0.ts") && !FileManager.default.fileExists(atPath: dir + "/out_video_init.mp4"))
    }

    /// A live ladder (window of 2, removal) of MPEG-TS renditions against ffmpeg's
    /// `-hls_list_size 2 -hls_flags delete_segments` ladder of the same packets (our mp4 of
    /// them): every media playlist line for line but the last #EXTINF of the audio, its listed
    /// segments byte for byte, and the same segment files left in the folder. The sound runs
    /// one AAC frame (768 samples) past the last 2 s, a segment of its own, which ours says
    /// lasts 0.016 s and ffmpeg's 0.021333 s: ffmpeg's running sum restarts at each cut and adds
    /// the duration of the previous segment's second packet at the end (Docs/hls.md).
    @Test func aLiveWindowSlidesEveryRenditionAsFFmpegs() throws {
        let dir = CLI.tempDir()
        let r = try HLSLadderTests.encode(in: dir, frames: 300, params: #", "segment-type": "mpegts", "playlist-type": "live", "list-size": 2, "delete-segments": true"#)
        #expect(r.status == 0, "\(r.stderr)")
        try Self.ffmpegLadder([dir + "/ours.mp4"], maps: ["0:v:0", "0:v:1", "0:a"], in: dir,
                              extra: ["-hls_list_size", "2", "-hls_flags", "delete_segments"])
        for (port, n) in Self.variants {
            var ours = try Self.comparable(dir + "/out_\(port).m3u8", port: port), theirs = try HLSSinkTests.lines(dir + "/ref_\(n).m3u8")
            if port == "audio", let a = ours.lastIndex(where: { $0.hasPrefix("#EXTINF:") }), let b = theirs.lastIndex(where: { $0.hasPrefix("#EXTINF:") }) {
                #expect(ours[a] == "#EXTINF:0.016000," && theirs[b] == "#EXTINF:0.021333,", "\(ours[a]) \(theirs[b])")
                ours.remove(at: a)
                theirs.remove(at: b)
            }
            #expect(ours == theirs, "\(port) ours:\n\(ours.joined(separator: "\n"))\nffmpeg's:\n\(theirs.joined(separator: "\n"))")
            #expect(ours.contains("#EXT-X-ENDLIST") && !ours.contains("#EXT-X-MEDIA-SEQUENCE:0"), "\(port): \(ours)")
            try Self.expectSameSegments(dir, port: port)
            let kept = try HLSLiveWindowTests.segmentNumbers(in: dir, prefix: "out_\(port)_", ext: "ts")
            let theirsKept = try HLSLiveWindowTests.segmentNumbers(in: dir, prefix: "ref_\(n)_", ext: "ts")
            #expect(kept.count == 3 && kept == theirsKept, "\(port): \(kept), ffmpeg's \(theirsKept)")
        }
    }

    /// Key frames every 1 s and every 1.5 s with 2 s segments: the variants' segments start at
    /// different times, and the run says where, as with fMP4 segments.
    @Test func misalignedKeyFramesWarn() throws {
        let dir = CLI.tempDir()
        let r = try HLSLadderTests.encode(in: dir, keyint: 30, keyint1: 45, params: #", "segment-type": "mpegts""#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning: node 'hls' (hls): the segments of 'video1' do not start where those of 'video' do (segment 1 starts at 3.000 s, not 2.000 s)"), "\(r.stderr)")
    }
}
