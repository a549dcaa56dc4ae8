import Foundation
import MediaGraphCore

/// `concat` with `overlap`: each clip's last `overlap` is blended with the next clip's first
/// (`ConcatTransition` for video, `ConcatCrossfade` for audio), and the next clip starts that
/// much earlier, so the output is (n−1)·overlap shorter than the clips together, as ffmpeg's
/// `xfade` + `acrossfade` chained over the same clips.
extension ConcatNode {
    /// Sets up the blends once the formats are known.
    func configureTransitions() throws {
        transition = nil
        crossfade = nil
        guard overlapSeconds > 0, clips.count > 1 else { return }
        var samples: Int64 = 0
        var ticks = Int64((overlapSeconds * Double(timeline.timescale)).rounded())
        if let a = audioFormat {
            samples = Int64((overlapSeconds * Double(a.sampleRate)).rounded())
            ticks = MediaTime.rescale(samples, timeBase: Rational(1, Int64(a.sampleRate)), to: timeline.timescale) ?? ticks
            crossfade = ConcatCrossfade(format: a, overlap: Int(samples), curves: fadeCurves)
        }
        guard ticks > 0, audioFormat == nil || samples > 0 else {
            throw NodeFailure("param 'overlap': \(overlapSeconds) s is shorter than one tick of the output clock")
        }
        if let v = videoFormat {
            if let shader {
                guard v.pixelFormat == .rgba else {
                    throw NodeFailure("param 'transition-file': a gl-transitions shader blends rgba video, but the clips are \(v.pixelFormat) (input '\(inputNames[clips.video[0]])'); convert them to rgba first (a 'convert' node with format rgba before each video input), or leave 'transition-file' out for a cross-fade on any pixel format")
                }
                transition = ConcatTransition(blend: .shader(shader.kernel, threads: threads), overlap: ticks)
            } else {
                transition = ConcatTransition(blend: .fade, overlap: ticks)
            }
        }
        overlapTicks = ticks
    }

    func sendVideo(_ frame: consuming SampleBuffer, pts: Int64, clip: Int, output: NodeOutput) throws {
        guard transition != nil, let format = videoFormat else { return try output.send(consume frame, port: 0) }
        if clip > 0, transition!.regionStart != nil {
            if transition!.inOverlap(pts) {
                let blended = try transition!.blended(frame, pts: pts, format: format)
                return try output.send(blended.freeze(), port: 0)
            }
            transition!.endOverlap()
        }
        guard clip < clips.count - 1 else { return try output.send(consume frame, port: 0) }
        for (f, _) in try transition!.hold(frame, pts: pts, videoEnd: timeline.videoEnd, clip: clip) {
            try output.send(f, port: 0)
        }
    }

    func sendAudio(_ buffer: consuming SampleBuffer, pts: Int64, clip: Int, output: NodeOutput) throws {
        if crossfade != nil {
            if clip > 0, crossfade!.isMixing {
                return try output.send(crossfade!.mix(buffer, pts: pts), port: 1)
            }
            if clip < clips.count - 1 {
                for (b, _) in crossfade!.hold(stampedAudio(buffer, pts: pts), pts: pts) { try output.send(b, port: 1) }
                return
            }
        }
        try output.send(stampedAudio(buffer, pts: pts), port: 1)
    }

    /// `buffer` as output audio at `pts` (the only reference keeps its bytes).
    func stampedAudio(_ buffer: consuming SampleBuffer, pts: Int64) -> SampleBuffer {
        guard let out = audioFormat else { return buffer }
        let count = buffer.sampleCount
        return SampleBuffer.restamped(consume buffer) { m in
            m.format = .audio(out)
            m.pts = pts
            m.dts = pts
            m.duration = Int64(count)
            m.timeBase = Rational(1, Int64(out.sampleRate))
        }
    }

    /// The current clip has ended with its audio inside its overlap with the previous clip while
    /// the clip itself (its video) lasts past the overlap: silence finishes the crossfade, as the
    /// padding after a clip's short audio would (the last clip gets no such padding, but the
    /// previous clip's tail still fades out over the overlap).
    func finishCrossfadeWithSilence(output: NodeOutput) throws {
        guard current > 0, let left = crossfade?.leftToMix, left > 0,
              timeline.silence(to: timeline.clipEnd) >= Int64(left) else { return }
        try sendSilence(Int64(left), output: output)
    }

    /// The current clip has ended: its overlap with the previous clip must be over.
    func endOverlapOfCurrentClip() throws {
        guard current > 0 else { return }
        if let t = transition, t.regionStart != nil {
            let headEnd = t.regionStart! &+ t.overlap
            guard timeline.clipEnd >= headEnd else { throw tooShort(clip: current, needs: 1) }
            transition!.endOverlap()
        }
        if crossfade?.isMixing == true { throw tooShort(clip: current, needs: 1) }
    }

    /// The current clip (not the last) ends at `end`: sends what comes before its overlap, keeps
    /// the rest for blending, and starts the next clip `overlap` earlier.
    func endClipBeforeTransition(at end: Int64, output: NodeOutput) throws {
        let start = timeline.clipStart
        let needed: Int64 = current > 0 ? 2 : 1
        guard end &- start >= needed &* overlapTicks else { throw tooShort(clip: current, needs: Int(needed)) }
        if transition != nil {
            for (f, _) in transition!.endClip(at: end) { try output.send(f, port: 0) }
        }
        if crossfade != nil {
            for (b, p) in try crossfade!.endClip(clip: current) { try output.send(stampedAudio(b, pts: p), port: 1) }
        }
        timeline.startNextClip(at: end, overlap: overlapTicks, overlapSamples: Int64(crossfade?.overlap ?? 0))
    }

    func tooShort(clip: Int, needs overlaps: Int) -> NodeFailure {
        let seconds = Double(timeline.clipEnd &- timeline.clipStart) / Double(timeline.timescale)
        func show(_ s: Double) -> String { String(format: "%g", s) }
        let what = overlaps == 2 ? "its 'overlap' with the clips before and after it (\(show(2 * overlapSeconds)) s)" : "the 'overlap' of \(show(overlapSeconds)) s"
        return NodeFailure("clip \(clip) (input '\(inputNames[clips.inputs(of: clip)[0]])') lasts \(show(seconds)) s, shorter than \(what)")
    }
}
