import MediaGraphCore

/// Which connected input belongs to which clip of `concat`: clip k is `video<k>` and/or
/// `audio<k>` (`video`/`audio` for clip 0), as ffmpeg's `concat=n=…:v=1:a=1` takes one video and
/// one audio pad per segment. Clips are numbered from 0 without gaps; when both kinds are
/// connected every clip has one of each.
struct ConcatClips {
    let count: Int
    /// Clip → input index.
    let video: [Int]
    let audio: [Int]
    /// Input index → (clip, is video).
    let inputs: [(clip: Int, isVideo: Bool)]

    init(connected names: [String]) throws {
        var video: [Int: Int] = [:], audio: [Int: Int] = [:]
        var inputs: [(clip: Int, isVideo: Bool)] = []
        for (k, name) in names.enumerated() {
            let isVideo = name.hasPrefix("video")
            let digits = name.dropFirst(5)  // "video" and "audio" are both five letters
            let clip = digits.isEmpty ? 0 : Int(digits) ?? -1
            guard clip >= 0, isVideo || name.hasPrefix("audio") else { throw NodeFailure("input '\(name)': expected video, video1, … or audio, audio1, …") }
            if isVideo { video[clip] = k } else { audio[clip] = k }
            inputs.append((clip, isVideo))
        }
        let count = max(video.count, audio.count)
        for (kind, table, other) in [("video", video, audio), ("audio", audio, video)] where !table.isEmpty {
            if let missing = (0..<count).first(where: { table[$0] == nil }) {
                let name = missing == 0 ? kind : "\(kind)\(missing)"
                let have = other[missing].map { names[$0] } ?? table.keys.sorted().map { $0 == 0 ? kind : "\(kind)\($0)" }.joined(separator: ", ")
                throw NodeFailure("input '\(name)' is not connected (clip \(missing) has \(have)): clips are numbered from 0 (\(kind), \(kind)1, …) without gaps, and when video and audio are both joined every clip has one of each")
            }
        }
        self.count = count
        self.video = video.isEmpty ? [] : (0..<count).map { video[$0]! }
        self.audio = audio.isEmpty ? [] : (0..<count).map { audio[$0]! }
        self.inputs = inputs
    }

    /// The inputs of clip `c`.
    func inputs(of c: Int) -> [Int] {
        (video.isEmpty ? [] : [video[c]]) + (audio.isEmpty ? [] : [audio[c]])
    }
}
