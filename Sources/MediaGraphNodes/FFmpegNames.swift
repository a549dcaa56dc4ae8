import MediaGraphCore

/// ffmpeg's names for what MediaGraph calls otherwise, or does another way: the first words a
/// user migrating from ffmpeg types as a node type. An unknown type found here gets this advice
/// instead of the nearest name by spelling (`webm` is not `webp`).
enum FFmpegNames {
    static let hints: [String: String] = {
        var h: [String: String] = [:]
        func same(_ names: [String], _ node: String) { for n in names { h[n] = "ffmpeg's \(n) is '\(node)' here" } }
        same(["negate"], "invert")
        same(["colorchannelmixer"], "colormatrix")
        same(["transpose"], "rotate")
        same(["hstack", "vstack", "xstack"], "stack")
        same(["xfade"], "transition")
        same(["yadif"], "deinterlace")
        same(["arealtime"], "realtime")
        same(["scdet"], "scenedetect")
        h["hflip"] = "ffmpeg's hflip is 'flip' here (its default direction, horizontal)"
        h["vflip"] = "ffmpeg's vflip is 'flip' here with \"direction\": \"vertical\""
        same(["aresample", "aformat"], "resample")
        same(["format"], "convert")
        same(["movie", "amovie"], "filesrc")
        same(["testsrc2"], "testsrc")
        same(["null"], "nullsink")
        same(["framemd5"], "framehash")
        same(["libx264"], "h264")
        same(["libx265"], "hevc")
        same(["libvpx"], "vp8")
        same(["libvpx-vp9"], "vp9")
        same(["libfdk_aac"], "aac")
        same(["libopus"], "opus")
        same(["libmp3lame"], "mp3")
        same(["prores_ks", "prores_aw"], "prores")
        for n in ["pcm_s16le", "pcm_s16be", "pcm_s24le", "pcm_s32le", "pcm_f32le", "pcm_f64le", "pcm_u8"] {
            h[n] = "ffmpeg's \(n) is the 'pcm' node here with \"codec\": \"\(n)\""
        }
        same(["ipod", "m4a"], "mp4")
        h["mov"] = "ffmpeg's mov muxer is the 'mp4' sink here with a .mov path (QuickTime movie)"
        same(["ivf"], "ivfsink")
        same(["adts"], "adtssink")
        same(["rawvideo"], "rawsink")
        same(["yuv4mpegpipe", "y4m"], "y4msink")
        h["image2"] = "ffmpeg's image2 is 'imageseqsink' here, and 'imageseq' to read"
        same(["s16le", "f32le"], "pcmsink")
        same(["wav"], "wavsink")
        h["framerate"] = "ffmpeg's framerate filter blends frames; 'fps' here drops and repeats them (ffmpeg's fps)"
        h["anullsrc"] = "silence is 'sine' with \"amplitude\": 0"
        h["trim"] = "cut with the \"start\" and \"end\" params of 'filesrc'"
        h["atrim"] = h["trim"]
        h["thumbnail"] = "pictures of a file come from `mediagraph thumbnails`, or the 'snapshot' sink in a graph"
        for n in ["webm", "mkv"] {
            h[n] = "ffmpeg's \(n) muxer is 'matroska' here: a .webm path writes WebM, any other name Matroska"
        }
        for n in ["boxblur", "gblur", "avgblur", "smartblur"] {
            h[n] = "blur with 'unsharp' and a negative amount (ffmpeg's unsharp), 'frei0r.IIRblur' or 'frei0r.squareblur', or a 'shader'"
        }
        h["sharpen"] = "sharpening is 'unsharp' (ffmpeg's unsharp filter)"
        h["segment"] = "ffmpeg's segment muxer has no node here: 'hls' and 'dash' cut fragmented-MP4 segments at key frames with a playlist or an MPD, and 'mp4' with \"fragmented\": true writes fragments into one file"
        return h
    }()

    static func register(into r: NodeRegistry) {
        for (name, text) in hints where r.entry(name) == nil { r.addHint(name, text) }
    }
}
