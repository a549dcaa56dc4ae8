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
            doc: "Joins clips one after another: clip k is inputs video<k> and/or audio<k> (video, video1, …); each starts where the previous ended, audio sample-exact; with 'overlap', each join is a transition (a cross-fade, or a gl-transitions shader) and an audio crossfade.",
            category: .filter,
            inputs: [PortSpec("video", .anyVideo, doc: "video of clip k (video, video1, …)", repeatable: true, optional: true),
                     PortSpec("audio", .audio(SampleFormat.allCases), doc: "audio of clip k (audio, audio1, …)", repeatable: true, optional: true)],
            outputs: [PortSpec("video", .anyVideo, doc: "the clips' video, one after another"),
                      PortSpec("audio", .audio(SampleFormat.allCases), doc: "the clips' audio, one after another (silence where a clip's audio is shorter than its video)")],
            params: ParamSpec.list([overlapParam, transitionFileParam, transitionUniformsParam, fadeOutCurveParam, fadeInCurveParam, KernelFilter.threadsParam]))
        // each clip is shown upright before the sizes are matched, so a later upright clip is
        // not shown turned by the first one's rotation
        info.matchedInputs = [.videoGeometry, .audioLayout, .videoUpright]
        return info
    }()

    static let overlapParam = Param<Double>("overlap", 0...3600, default: 0, doc: "seconds each clip overlaps the next: its last 'overlap' is blended into the next clip's first (video by the transition, audio by a crossfade as ffmpeg's acrossfade); the output is (n−1)·overlap shorter. 0: clips join without a transition")
    static let fadeOutCurveParam = AudioFadeCurve.param("fade-out-curve", doc: "with 'overlap': how the ending clip's sound fades out in the crossfade (ffmpeg's acrossfade curve1)")
    static let fadeInCurveParam = AudioFadeCurve.param("fade-in-curve", doc: "with 'overlap': how the next clip's sound fades in (ffmpeg's acrossfade curve2)")
    static let transitionFileParam = Param<String?>.path("transition-file", role: .input, doc: "gl-transitions shader file (.glsl) for the overlaps, on rgba video; default: a cross-fade on any pixel format (ffmpeg's xfade 'fade')")
    static let transitionUniformsParam = Param<JSONValue?>(
        spec: .json("transition-uniforms", default: .object([], nil), doc: "the transition shader's own uniforms (progress is set per frame)")) { $0[$1] }

    let id: String
    let inputNames: [String]
    let overlapSeconds: Double
    let shader: TransitionProgram?
    let threads: Int
    let fadeCurves: (out: AudioFadeCurve, in: AudioFadeCurve)
    public let validationWarnings: [String]
    var transition: ConcatTransition?
    var overlapTicks: Int64 = 0
    var crossfade: ConcatCrossfade?
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
        let p = setup.params
        overlapSeconds = p[Self.overlapParam]
        threads = p[KernelFilter.threadsParam]
        fadeCurves = (AudioFadeCurve(rawValue: p[Self.fadeOutCurveParam]) ?? .tri, AudioFadeCurve(rawValue: p[Self.fadeInCurveParam]) ?? .tri)
        if let path = p[Self.transitionFileParam] {
            guard overlapSeconds > 0 else { throw NodeFailure("param 'transition-file': a transition runs over the clips' 'overlap', which is 0; give 'overlap' in seconds") }
            let (text, name) = try TransitionProgram.text(file: path, source: nil, inline: path, fileParam: "transition-file", sourceParam: "transition-file")
            shader = try TransitionProgram(text: text, name: name, uniforms: p[Self.transitionUniformsParam] ?? .object([], nil), uniformsParam: "transition-uniforms")
        } else {
            shader = nil
        }
        validationWarnings = shader?.warnings ?? []
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        var timeBases: [Rational] = []
        for k in clips.video {
            guard let v = inputs[k].format.video else { throw NodeFailure("input '\(inputs[k].port)': expected raw video, found \(inputs[k].format)") }
            if let first = videoFormat, (first.width, first.height, first.pixelFormat) != (v.width, v.height, v.pixelFormat) {
                throw NodeFailure("input '\(inputs[k].port)' is \(v.pixelFormat) \(v.width)x\(v.height) but input '\(inputs[clips.video[0]].port)' is \(first.pixelFormat) \(first.width)x\(first.height)")
            }
            // one rotation for the whole output would show some clips turned (the graph makes
            // every clip upright first; this guards the node used without that)
            if let first = videoFormat, first.rotation != v.rotation {
                throw NodeFailure("input '\(inputs[k].port)' is rotated \(v.rotation)° but input '\(inputs[clips.video[0]].port)' is rotated \(first.rotation)°: the output has one display rotation; turn the clips upright first (a 'rotate' node)")
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
        try configureTransitions()
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
            try finishCrossfadeWithSilence(output: output)
            try endOverlapOfCurrentClip()
            let end = timeline.clipEnd
            if !last {
                let silence = timeline.silence(to: end)
                if silence > 0 { try sendSilence(silence, output: output) }
            }
            if !last, transition != nil || crossfade != nil {
                try endClipBeforeTransition(at: end, output: output)
            } else {
                timeline.startNextClip(at: end)
            }
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
        let clip = clips.inputs[input].clip
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
            try sendVideo(frame, pts: at.pts, clip: clip, output: output)
        } else {
            guard let out = audioFormat else { return }
            let count = buffer.sampleCount
            guard buffer.byteCount >= count * out.channels * out.sampleFormat.bytesPerSample else {
                throw NodeFailure("input '\(inputNames[input])': a buffer of \(count) samples × \(out.channels) channels of \(out.sampleFormat) holds only \(buffer.byteCount) bytes")
            }
            try sendAudio(buffer, pts: timeline.placeAudio(count: count), clip: clip, output: output)
        }
    }

    /// Silence after a clip whose audio is shorter than its video, in chunks of at most 4096
    /// samples (joins only: not on the per-buffer path).
    func sendSilence(_ count: Int64, output: NodeOutput) throws {
        // before the clip ends: part of its audio, so part of a transition's tail
        guard let out = audioFormat else { return }
        var left = count
        let zero: UInt8 = out.sampleFormat == .u8 || out.sampleFormat == .u8planar ? 0x80 : 0
        while left > 0 {
            let n = Int(min(left, 4096))
            let pts = timeline.placeAudio(count: n)
            let bytes = [UInt8](repeating: zero, count: n * out.channels * out.sampleFormat.bytesPerSample)
            try sendAudio(SampleBuffer(bytes: bytes, format: .audio(out), pts: pts, duration: Int64(n),
                                       timeBase: Rational(1, Int64(out.sampleRate)), flags: .keyFrame, sampleCount: n),
                          pts: pts, clip: current, output: output)
            left -= Int64(n)
        }
    }
}
