import MediaGraphCore

extension MP4Muxer {
    /// One track's queue and sample table.
    final class Track {
        var description: MP4TrackDescription
        var configuration: CodecConfiguration?
        var queue: [MP4Sample] = []
        var head = 0
        var table = SampleTable()
        var received = 0
        var lastQueuedDTS: Int64?
        var ended = false
        // fragmented mode
        var firstDTS: Int64?
        var lastDelta: Int64 = 0
        var firstFragmentMinPTS: Int64?

        init(_ d: MP4TrackDescription, _ c: CodecConfiguration?) {
            description = d
            configuration = c
        }
        var hasQueued: Bool { head < queue.count }
        var headSample: MP4Sample { queue[head] }
        func popHead() -> MP4Sample {
            let s = queue[head]
            queue[head].data = PacketBytes([]) // written samples keep no bytes alive until compaction
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 256 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            return s
        }
        func time(_ ticks: Int64) -> MediaTime { MediaTime(value: ticks, timescale: description.timescale) }
    }
}
