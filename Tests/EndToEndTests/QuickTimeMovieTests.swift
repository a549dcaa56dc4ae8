import Foundation
import Testing

/// QuickTime movies from the `mp4` sink (a .mov name) with the `prores` and `pcm` encoders,
/// against ffmpeg 5.1 doing the same from the same input (an ffmpeg-made Matroska file of raw
/// 10-bit pictures and 16-bit sound): ProRes packets byte for byte what `-c:v prores_ks
/// -profile:v N` makes, the same decoded sound, ffprobe's stream fields as on ffmpeg's own
/// encode, the sample descriptions byte for byte ffmpeg's (its compressor name aside), and the
/// whole file byte for byte what ffmpeg's `-c copy -f mov -fflags +bitexact` remux of it writes.
@Suite struct QuickTimeMovieTests {
    /// Every ProRes profile once, each with another PCM codec; 96 kHz sound takes a version 2
    /// description (lpcm).
    static let cases: [(profile: String, number: Int, pixelFormat: String, pcm: String, rate: Int)] = [
        ("proxy", 0, "yuv422p10le", "pcm_s16le", 48000), ("lt", 1, "yuv422p10le", "pcm_s24le", 48000),
        ("standard", 2, "yuv422p10le", "pcm_s32le", 48000), ("hq", 3, "yuv422p10le", "pcm_f32le", 48000),
        ("4444", 4, "yuv444p10le", "pcm_s16be", 48000), ("4444xq", 5, "yuv444p10le", "pcm_u8", 48000),
        ("hq", 3, "yuv422p10le", "pcm_s24le", 96000), ("lt", 1, "yuv422p10le", "pcm_f32le", 96000),
    ]

    /// ffmpeg's source: 10 frames of testsrc in `pixelFormat`, and a stereo tone in 1024-sample
    /// packets, as raw video and PCM in NUT.
    static func source(_ dir: String, pixelFormat: String, sampleRate: Int = 48000) throws -> String {
        let path = dir + "/src.nut"
        let r = try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=0.4",
                                       "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(sampleRate):duration=0.4",
                                       "-pix_fmt", pixelFormat, "-c:v", "rawvideo", "-ac", "2", "-c:a", "pcm_s16le", path])
        try #require(r.status == 0, "\(r.stderr)")
        return path
    }

    @Test(arguments: 0..<cases.count)
    func proresAndPCMAreFFmpegsMovie(_ index: Int) throws {
        let c = Self.cases[index]
        let dir = CLI.tempDir()
        let src = try Self.source(dir, pixelFormat: c.pixelFormat, sampleRate: c.rate)
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(src)" } },
                     "tag": { "type": "setparams", "params": { "range": "limited", "matrix": "bt709", "primaries": "bt709", "transfer": "bt709" } },
                     "enc": { "type": "prores", "params": { "profile": "\(c.profile)" } },
                     "plain": { "type": "prores", "params": { "profile": "\(c.profile)" } },
                     "pcm": { "type": "pcm", "params": { "codec": "\(c.pcm)" } },
                     "mux": { "type": "mp4", "params": { "path": "ours.mov", "faststart": false } },
                     "mux2": { "type": "mp4", "params": { "path": "plain.mov", "faststart": false } } },
          "chains": [["in.video", "tag", "enc", "mux.video"], ["in.audio", "pcm", "mux.audio"],
                     ["in.video", "plain", "mux2.video"], ["pcm", "mux2.audio"]] }
        """, in: dir)
        // plain.mov, without colour: ffmpeg's remux of a ProRes movie drops the colr it read (its
        // ProRes decoder's unspecified colour wins), so the whole-file comparison is made there
        let ours = dir + "/ours.mov", theirs = dir + "/theirs.mov", plain = dir + "/plain.mov", remux = dir + "/remux.mov"
        var r = try CLI.run("ffmpeg", ["-v", "error", "-i", src, "-c:v", "prores_ks", "-profile:v", String(c.number),
                                       "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv",
                                       "-c:a", c.pcm, "-fflags", "+bitexact", theirs])
        try #require(r.status == 0, "\(r.stderr)")
        r = try CLI.run("ffmpeg", ["-v", "error", "-i", plain, "-c", "copy", "-f", "mov", "-fflags", "+bitexact", remux])
        try #require(r.status == 0, "\(r.stderr)")

        // the packets: prores_ks's with the same options, byte for byte; the same sound
        #expect(try Self.packetHashes(ours, "v") == Self.packetHashes(theirs, "v"))
        #expect(try Self.packetHashes(ours, "v").count == 10)
        #expect(try Self.decodedHash(ours, "a") == Self.decodedHash(theirs, "a"))
        #expect(try Self.decodedHash(ours, "v") == Self.decodedHash(theirs, "v"))
        // what ffprobe says of the streams
        let fields = "codec_name,codec_tag_string,profile,pix_fmt,field_order,color_range,color_space,color_transfer,color_primaries,sample_aspect_ratio,width,height,r_frame_rate,sample_fmt,sample_rate,channels,channel_layout,bits_per_sample,nb_frames"
        #expect(try Self.streams(ours, fields) == Self.streams(theirs, fields))
        // the sample descriptions, ffmpeg's compressor name ("Lavc prores_ks") left out
        #expect(MovieBoxes.stsd(ours, track: 0).map(MovieBoxes.blankingCompressorName) == MovieBoxes.stsd(theirs, track: 0).map(MovieBoxes.blankingCompressorName))
        #expect(MovieBoxes.stsd(ours, track: 1) == MovieBoxes.stsd(theirs, track: 1))
        #expect(MovieBoxes.stsd(ours, track: 1)?.count ?? 0 > 40)
        // the whole file: what ffmpeg's mov muxer writes for these packets
        let oursBytes = FileManager.default.contents(atPath: plain) ?? Data()
        #expect(oursBytes.count > 10_000 && oursBytes == FileManager.default.contents(atPath: remux),
                "ours \(oursBytes.count) bytes, ffmpeg's remux \(FileManager.default.contents(atPath: remux)?.count ?? 0)")
        #expect(try MovieTagsMedia.decodesSilently(ours))
        #expect(try Self.packetHashes(plain, "v") == Self.packetHashes(ours, "v"))
    }

    /// A movie of ProRes alone, whose frames come in one long run: its chunks are kept under
    /// 1 MiB as ffmpeg's mov muxer keeps them, so its remux is the same file byte for byte.
    @Test func proresAloneIsChunkedAsFFmpegChunksIt() throws {
        let dir = CLI.tempDir()
        try MovieTagsMedia.run("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 1280, "height": 720, "frames": 60 } },
                     "enc": { "type": "prores", "params": { "profile": "hq" } },
                     "mux": { "type": "mp4", "params": { "path": "alone.mov", "faststart": false } } },
          "chains": [["src", "enc", "mux.video"]] }
        """, in: dir)
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/alone.mov", "-c", "copy", "-f", "mov", "-fflags", "+bitexact", dir + "/remux.mov"])
        try #require(r.status == 0, "\(r.stderr)")
        let ours = FileManager.default.contents(atPath: dir + "/alone.mov") ?? Data()
        #expect(ours.count > 2 << 20 && ours == FileManager.default.contents(atPath: dir + "/remux.mov"),
                "ours \(ours.count) bytes, ffmpeg's remux \(FileManager.default.contents(atPath: dir + "/remux.mov")?.count ?? 0)")
    }

    /// H.264 and AAC copied from an MP4 into a .mov: ffmpeg's `-c copy out.mov`, byte for byte
    /// but for the compressor name, which ffmpeg copies from the source's (MediaGraph's file
    /// reader does not pass it on).
    @Test func h264AndAACCopiedIntoMovAreFFmpegsCopy() throws {
        let dir = CLI.tempDir()
        let src = dir + "/src.mp4"
        var r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=1",
                                       "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                                       "-c:v", "libx264", "-c:a", "aac", "-fflags", "+bitexact", src])
        try #require(r.status == 0, "\(r.stderr)")
        try MovieTagsMedia.run("""
        { "nodes": { "in": { "type": "filesrc", "params": { "path": "\(src)" } },
                     "mux": { "type": "mp4", "params": { "path": "copy.mov", "faststart": false } } },
          "chains": [["in.video", "mux.video"], ["in.audio", "mux.audio"]] }
        """, in: dir)
        r = try CLI.run("ffmpeg", ["-v", "error", "-i", src, "-c", "copy", "-fflags", "+bitexact", dir + "/ffmpeg.mov"])
        try #require(r.status == 0, "\(r.stderr)")
        let ours = MovieBoxes.blankingCompressorNames(dir + "/copy.mov"), theirs = MovieBoxes.blankingCompressorNames(dir + "/ffmpeg.mov")
        #expect(ours.count > 10_000 && ours == theirs, "ours \(ours.count) bytes, ffmpeg's \(theirs.count)")
        #expect(try MovieTagsMedia.decodesSilently(dir + "/copy.mov"))
        #expect(try Self.packetHashes(dir + "/copy.mov", "v") == Self.packetHashes(src, "v"))
    }

    /// What a .mov cannot hold, and what only a .mov holds, is refused when the graph is checked,
    /// naming the input and what to do.
    @Test func containerMismatchesAreRefusedUpFront() throws {
        let dir = CLI.tempDir()
        let video = #""src": { "type": "testsrc", "params": { "frames": 2 } },"#
        let audio = #""src": { "type": "sine", "params": { "seconds": 0.1 } },"#
        for (source, encoder, port, path, expected) in [(video, "prores", "video", "out.mp4", "name the output .mov"),
                                                        (audio, "pcm", "audio", "out.mp4", "name the output .mov"),
                                                        (video, "vp9", "video", "out.mov", "a .mov is written with H.264, HEVC, ProRes, AAC or PCM")] {
            let graph = CLI.writeGraph("""
            { "nodes": { \(source) "enc": { "type": "\(encoder)" }, "mux": { "type": "mp4", "params": { "path": "\(path)" } } },
              "chains": [["src", "enc", "mux.\(port)"]] }
            """, in: dir)
            let r = try CLI.mediagraph("validate", graph)
            #expect(r.status != 0 && r.stderr.contains(expected) && r.stderr.contains("mux"), "\(r.stderr)")
        }
    }

    /// ffmpeg's framemd5 of one stream's packets as stored (`-c copy`).
    static func packetHashes(_ file: String, _ stream: String) throws -> [String] {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:\(stream)", "-c", "copy", "-f", "framemd5", "-"])
        return r.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { String($0.split(separator: ",").last ?? "") }
    }

    /// The md5 of one stream decoded whole.
    static func decodedHash(_ file: String, _ stream: String) throws -> String {
        let r = try CLI.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:\(stream)", "-f", "md5", "-"])
        return r.out
    }

    /// ffprobe's values of `entries` for every stream.
    static func streams(_ file: String, _ entries: String) throws -> String {
        try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=" + entries, "-of", "compact", file]).out
    }
}

/// Boxes of a QuickTime movie read for comparison.
enum MovieBoxes {
    /// Every box found by descending from the top level along `trail` (e.g. moov, trak, tref:
    /// each track's tref), whole with its header, in file order.
    static func boxes(_ path: String, _ trail: [String]) -> [[UInt8]] {
        let d = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        func u32(_ i: Int) -> Int { Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3]) }
        var ranges = [0..<d.count]
        for (level, type) in trail.enumerated() {
            var found: [Range<Int>] = []
            for r in ranges {
                var i = level == 0 ? r.lowerBound : r.lowerBound + 8
                while i + 8 <= r.upperBound {
                    let size = u32(i)
                    guard size >= 8, i + size <= r.upperBound else { break }
                    if String(decoding: d[(i + 4)..<(i + 8)], as: UTF8.self) == type { found.append(i..<(i + size)) }
                    i += size
                }
            }
            ranges = found
        }
        return ranges.map { Array(d[$0]) }
    }

    /// The sample description (stsd) of the `track`-th trak, whole with its header.
    static func stsd(_ path: String, track: Int) -> [UInt8]? {
        let d = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        func u32(_ i: Int) -> Int { Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3]) }
        func children(_ type: String, _ r: Range<Int>) -> [Range<Int>] {
            var out: [Range<Int>] = [], i = r.lowerBound
            while i + 8 <= r.upperBound {
                let size = u32(i)
                guard size >= 8, i + size <= r.upperBound else { break }
                if String(decoding: d[(i + 4)..<(i + 8)], as: UTF8.self) == type { out.append(i..<(i + size)) }
                i += size
            }
            return out
        }
        func inside(_ r: Range<Int>) -> Range<Int> { (r.lowerBound + 8)..<r.upperBound }
        guard let moov = children("moov", 0..<d.count).first else { return nil }
        let traks = children("trak", inside(moov))
        guard track < traks.count,
              let mdia = children("mdia", inside(traks[track])).first, let minf = children("minf", inside(mdia)).first,
              let stbl = children("stbl", inside(minf)).first, let stsd = children("stsd", inside(stbl)).first else { return nil }
        return Array(d[stsd])
    }

    /// A file with the compressor name of every avc1 sample description zeroed.
    static func blankingCompressorNames(_ path: String) -> [UInt8] {
        var d = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        let avc1 = Array("avc1".utf8)
        var i = 4
        while i + 82 <= d.count {
            // an entry: size, "avc1", 6 reserved zero bytes, data reference index 1
            if Array(d[i..<(i + 4)]) == avc1 && d[(i + 4)..<(i + 10)].allSatisfy({ $0 == 0 }) && d[i + 11] == 1 {
                for k in (i + 4 + 42)..<(i + 4 + 74) { d[k] = 0 }
            }
            i += 1
        }
        return d
    }

    /// A video sample description with its 32-byte compressor name zeroed (16 bytes of stsd,
    /// 8 of entry header, 42 of fields before it).
    static func blankingCompressorName(_ stsd: [UInt8]) -> [UInt8] {
        var b = stsd
        let at = 16 + 8 + 42
        if b.count >= at + 32 { for i in at..<(at + 32) { b[i] = 0 } }
        return b
    }
}
