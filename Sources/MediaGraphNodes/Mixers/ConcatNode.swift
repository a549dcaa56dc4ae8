import MediaGraphCore

/// `concat`: clips one after another, as ffmpeg's concat filter. Clip k is input `video<k>`
/// and/or `audio<k>`; inputs of another size, pixel format, sample rate or channel count than clip
/// 0's meet through inserted `scale` / `resample` nodes. Timing is `ConcatTimeline`'s: each clip
/// starts where the previous one ended (the longer of its video and audio), audio is joined
/// sample-exactly, frame rates pass through (the output is variable-rate when clips differ).
public final class ConcatNode: RegisteredNode, WaitsForPreferredInput {
    public static let typeInfo: NodeTypeInfo = {
        var info = NodeTypeInfo(
            name: "concat",
            doc: "Joins clips one after another: clip k is inputs video<k> and/or audio<k> (video, video1, …); each starts where the previous ended, audio sample-exact.",
            category: .filter,
            inputs: [PortSpec("video", .anyVideo, doc: "video of clip k (video, video1, …)", repeatable: true, optional: true),
                     PortSpec("audio", .audio(SampleFormat.allCases), doc: "audio of clip k (audio, audio1, …)", repeatable: true, optional: true)],
            outputs: [PortSpec("video", .anyVideo, doc: "the clips' video, one after another"),
                      PortSpec("audio", .audio(SampleFormat.allCases), doc: "the clips' audio, one after another (silence where a clip's audio is shorter than its video)")])
        info.matchedInputs = [.videoGeometry, .audioLayout]
        return info
    }()

    let id: String
    let inputNames: [String]
    let clips: ConcatClips
    var timeline = ConcatTimeline(videoTimeBases: [], sampleRate: nil)
    var videoFormat: VideoFormat?
    var audioFormat: AudioFormat?
    /// The clip being sent; buffers of later clips wait in `early` until it ends.
    var current = 0
    var ended: [Bool]
    var early: [[SampleBuffer]]
    /// Most buffers a later clip's input may deliver early (the engine takes from a full queue
    /// only to avoid a deadlock), so memory stays bounded.
    static let maximumEarly = 1024
    /// The most buffers (and their bytes) held in `early` at once during the run: the memory a
    /// concat of many clips costs beyond the queues (tests check it stays small).
    public private(set) var peakEarlyBuffers = 0
    public private(set) var peakEarlyBytes = 0
    var earlyBuffers = 0
    var earlyBytes = 0

    public init(setup: NodeSetup) throws {
        id = setup.id
        inputNames = setup.connectedInputs
        clips = try ConcatClips(connected: setup.connectedInputs)
        ended = Array(repeating: false, count: setup.connectedInputs.count)
        early = Array(repeating: [], count: setup.connectedInputs.count)
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        var timeBases: [Rational] = []
        for k in clips.video {
            guard let v = inputs[k].format.video else { throw NodeFailure("input '\(inputs[k].port)': expected raw video, found \(inputs[k].format)") }
            if let first = videoFormat, (first.width, first.height, first.pixelFormat) != (v.width, v.height, v.pixelFormat) {
                throw NodeFailure("input '\(inputs[k].port)' is \(v.pixelFormat) \(v.width)x\(v.height) but input '\(inputs[clips.video[0]].port)' is \(first.pixelFormat) \(first.width)x\(first.height)")
            }
            if videoFormat == nil { videoFormat = v }
            timeBases.append(v.timeBase)
        }
        for k in clips.audio {
            guard let a = inputs[k].format.audio else { throw NodeFailure("input '\(inputs[k].port)': expected raw audio, found \(inputs[k].format)") }
            if let first = audioFormat, (first.sampleFormat, first.sampleRate, first.channels) != (a.sampleFormat, a.sampleRate, a.channels) {
                throw NodeFailure("input '\(inputs[k].port)' is \(a) but input '\(inputs[clips.audio[0]].port)' is \(first)")
            }
            if audioFormat == nil { audioFormat = a }
        }
        timeline = ConcatTimeline(videoTimeBases: timeBases, sampleRate: audioFormat?.sampleRate)
        videoFormat?.timeBase = Rational(1, timeline.timescale)
        // an output with no input of its kind carries nothing; it still needs a format
        let video = videoFormat ?? VideoFormat(pixelFormat: .yuv420p, width: 2, height: 2)
        let audio = audioFormat ?? AudioFormat(sampleFormat: .f32planar, sampleRate: 48_000, channels: 2)
        return [.video(video), .audio(audio)]
    }

    /// The current clip's input that is behind (so video and audio of a clip arrive interleaved),
    /// then the next clip's.
    public func preferredInput() -> Int? {
        for c in current..<clips.count {
            let open = clips.inputs(of: c).filter { !ended[$0] }
            if open.count == 2 { return timeline.videoEnd <= timeline.audioEnd ? open[0] : open[1] }
            if let k = open.first { return k }
        }
        return nil
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        try advance(output: output)
        if clips.inputs[input].clip > current {
            guard early[input].count < Self.maximumEarly else {
                throw NodeFailure("input '\(inputNames[input])' (clip \(clips.inputs[input].clip)) sent more than \(Self.maximumEarly) buffers while clip \(current) was still being read; a later clip fed by the thread that feeds an earlier one cannot wait (give each clip its own source)")
            }
            earlyBuffers += 1
            earlyBytes += buffer.byteCount
            peakEarlyBuffers = max(peakEarlyBuffers, earlyBuffers)
            peakEarlyBytes = max(peakEarlyBytes, earlyBytes)
            early[input].append(buffer)
            return
        }
        try send(consume buffer, input: input, output: output)
    }

    public func inputEnded(_ input: Int) throws { ended[input] = true }

    public func finish(output: NodeOutput) throws {
        try advance(output: output)
    }

    /// Moves on past every clip whose inputs have all ended, sending the next clip's early buffers.
    func advance(output: NodeOutput) throws {
        while current < clips.count && clips.inputs(of: current).allSatisfy({ ended[$0] }) {
            let last = current == clips.count - 1
            let silence = timeline.endClip(padAudio: !last)
            if silence > 0 { try sendSilence(silence, output: output) }
            current += 1
            if last { break }
            for k in clips.inputs(of: current) {
                var waiting: [SampleBuffer] = []
                swap(&waiting, &early[k])
                // taken out one by one, so each is sent as its only reference
                waiting.reverse()
                while let b = waiting.popLast() {
                    earlyBuffers -= 1
                    earlyBytes -= b.byteCount
                    try send(consume b, input: k, output: output)
                }
            }
        }
    }

    func send(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if clips.inputs[input].isVideo {
            guard let out = videoFormat, let v = buffer.format.video else { return }
            let at = timeline.placeVideo(pts: buffer.pts, duration: buffer.duration, timeBase: buffer.timeBase, frameRate: v.frameRate)
            // restamping the only reference keeps the frame's planes (no copy)
            let frame = SampleBuffer.restamped(consume buffer) { m in
                m.format = .video(out)
                m.pts = at.pts
                m.dts = at.pts
                m.duration = at.duration
                m.timeBase = out.timeBase
            }
            try output.send(consume frame, port: 0)
        } else {
            guard let out = audioFormat else { return }
            let count = buffer.sampleCount
            let pts = timeline.placeAudio(count: count)
            let samples = SampleBuffer.restamped(consume buffer) { m in
                m.format = .audio(out)
                m.pts = pts
                m.dts = pts
                m.duration = Int64(count)
                m.timeBase = Rational(1, Int64(out.sampleRate))
            }
            try output.send(consume samples, port: 1)
        }
    }

    /// Silence after a clip whose audio is shorter than its video, in chunks of at most 4096
    /// samples (joins only: not on the per-buffer path).
    func sendSilence(_ count: Int64, output: NodeOutput) throws {
        guard let out = audioFormat else { return }
        var left = count
        let zero: UInt8 = out.sampleFormat == .u8 || out.sampleFormat == .u8planar ? 0x80 : 0
        while left > 0 {
            let n = Int(min(left, 4096))
            let pts = timeline.placeAudio(count: n)
            let bytes = [UInt8](repeating: zero, count: n * out.channels * out.sampleFormat.bytesPerSample)
            try output.send(SampleBuffer(bytes: bytes, format: .audio(out), pts: pts, duration: Int64(n),
                                         timeBase: Rational(1, Int64(out.sampleRate)), flags: .keyFrame, sampleCount: n), port: 1)
            left -= Int64(n)
        }
    }
}
