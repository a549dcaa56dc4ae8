import MediaGraphCodecs
import MediaGraphCore

/// Where a `filesrc`'s video can be cut into segments: reads the stream's packets (no decoding)
/// to learn every picture's time, as the source will give it, and puts each cut on a picture,
/// on a key frame where one is near (a segment that starts on one decodes nothing it drops).
struct FileSegmentScan {
    let node: GraphPlan.Node
    /// The filesrc port the video leaves by (`video`, `video1`, `stream3` …).
    let port: String
    /// Every port of the source the planned graph reads (the video's, the audio's …).
    let connectedPorts: [String]

    struct Cuts {
        var ranges: [SegmentRange]
        /// A `start` every task's source gets (microseconds after the file's start time), so
        /// that tasks reading fewer streams than the whole run keep its time zero (MPEG-TS).
        var start: Int64?
    }

    func cuts(size: SegmentSize) throws -> Cuts {
        let p = node.params
        let path = p[FileSource.pathParam]
        let what = "node '\(node.id)' (filesrc '\(path)')"
        let demuxer: Demuxer
        do {
            demuxer = try Demuxer(path: path, options: DemuxerOptions(probeSize: Int64(p[FileSource.probeSizeParam]),
                                                                      analyzeDuration: Int64(p[FileSource.probeDurationParam] * 1e6)))
        } catch let e as DemuxError { throw SegmentError("\(what): \(e.message)") }
        guard !["h264", "hevc"].contains(demuxer.container.formatName) else {
            throw SegmentError("\(what): a raw \(demuxer.container.formatName) stream has no timestamps to cut by; put it in a container first")
        }
        let ports = FileStreamPorts(path: path, streams: demuxer.streams)
        let info: StreamInfo, trim: FileTrim, read: [StreamInfo]
        do {
            info = demuxer.streams[ports.ports[try ports.portIndex(named: port)].streamIndex]
            read = try connectedPorts.map { demuxer.streams[ports.ports[try ports.portIndex(named: $0)].streamIndex] }
            let firstVideo = ports.ports.first { demuxer.streams[$0.streamIndex].kind == .video }.map { demuxer.streams[$0.streamIndex] }
            trim = try FileTrim.make(p, demuxer: demuxer, firstVideo: firstVideo)
        } catch let e as NodeFailure { throw SegmentError("\(what): \(e.message)") }
        guard info.kind == .video else { throw SegmentError("\(what): port '\(port)' is not a video stream") }
        guard !trim.isSegment else { throw SegmentError("\(what): it is a segment already (segment-start/segment-end); plan the whole graph") }

        let micros = Rational(1, 1_000_000)
        var zero = (demuxer.container.startTime ?? 0) + trim.startMicros
        var start: Int64?
        // Where timestamps may jump (MPEG-TS/PS), zero without a trim is where the streams read
        // begin (FileSource.startAtTheStreamsRead), and a task reads fewer streams than the whole
        // run: every task is given the whole run's zero as its `start`.
        if demuxer.container.allowsDiscontinuities && !trim.startGiven && trim.lengthMicros == nil,
           let fileStart = demuxer.container.startTime {
            let starts = read.compactMap { s in s.startTime.map { Demuxer.rescale($0, from: s.timeBase, to: micros) } }
            if let first = starts.min(), first > fileStart { zero = first }
            start = zero - fileStart
        }
        let jumps = demuxer.container.allowsDiscontinuities ? JumpCheck(streams: read) : nil
        demuxer.select(Set([info.index] + read.map(\.index)))
        var pictures: [(pts: Int64, key: Bool)] = []
        let tb = info.timeBase
        let offset = Demuxer.rescale(zero, from: micros, to: tb)
        let end = trim.lengthMicros.map { Demuxer.rescale(zero + $0, from: micros, to: tb) - offset }
        while true {
            let packet: DemuxedPacket?
            do { packet = try demuxer.read() } catch let e as DemuxError { throw SegmentError("\(what): \(e.message)") }
            guard let packet else { break }
            if let jumps, let jump = jumps.check(packet) {
                throw SegmentError("\(what): \(jump), as where recordings are joined; a task could not find its frames again by time. Remux it first: a filesrc → mp4 graph copies it with the times made to follow on")
            }
            guard packet.streamIndex == info.index, !packet.isDiscarded else { continue }
            guard packet.pts != DemuxedPacket.noTime else {
                throw SegmentError("\(what): a packet of stream '\(port)' has no presentation time (after \(pictures.count) pictures), so the stream cannot be cut by time; remux it first")
            }
            // as the source refuses them: times beyond ±2^60 ticks or 10^12 s are broken
            let limit = Int64(1) << 60
            guard packet.pts > -limit, packet.pts < limit, Swift.abs(Double(packet.pts) * tb.doubleValue) < 1e12 else {
                throw SegmentError("\(what): a packet of stream '\(port)' has the time \(packet.pts) in \(tb), out of range")
            }
            pictures.append((packet.pts - offset, packet.isKeyFrame))
        }
        // what the run shows: pictures from zero to the end (decoders drop the lead-in)
        let shown = pictures.filter { picture in picture.pts >= 0 && end.map { picture.pts < $0 } ?? true }.sorted { $0.pts < $1.pts }
        guard !shown.isEmpty else { throw SegmentError("\(what): the run shows no picture of stream '\(port)'") }
        let count = shown.count
        // the span of the pictures' times, and one picture's share more for the last one's duration
        let span = Double(shown[count - 1].pts - shown[0].pts) * tb.doubleValue * Double(count) / Double(max(1, count - 1))
        let n = size.count(pictures: count, seconds: span)
        var cuts: [Int] = []
        let window = count / (8 * n)
        for k in 1..<max(n, 1) {
            let target = k * count / n
            let low = max((cuts.last ?? 0) + 1, target - window), high = min(count - 1, target + window)
            let key = low <= high ? (low...high).filter { shown[$0].key }.min { abs($0 - target) < abs($1 - target) } : nil
            let cut = key ?? target
            if cut > (cuts.last ?? 0) && cut < count { cuts.append(cut) }
        }
        // a cut is the floor of its picture's time in microseconds; the source takes the first
        // tick at or after it (FileTrim.ticks), which is the picture's own time again
        let bounds = cuts.map { floorMicros(shown[$0].pts, tb) }
        let ticks = bounds.map { FileTrim.ticks($0, in: tb) }
        var ranges: [SegmentRange] = []
        for k in 0...bounds.count {
            let from = k == 0 ? Int64.min : ticks[k - 1], to = k == bounds.count ? Int64.max : ticks[k]
            ranges.append(SegmentRange(frames: shown.count { $0.pts >= from && $0.pts < to },
                                       startMicros: k == 0 ? nil : bounds[k - 1], endMicros: k == bounds.count ? nil : bounds[k]))
        }
        return Cuts(ranges: ranges.filter { $0.frames > 0 }, start: start)
    }

    /// Microseconds of `ticks` of `tb`, rounded down.
    func floorMicros(_ ticks: Int64, _ tb: Rational) -> Int64 {
        let (hi, lo) = ticks.multipliedFullWidth(by: tb.num * 1_000_000)
        return tb.den.dividingFullWidth((hi, lo)).quotient
    }
}
