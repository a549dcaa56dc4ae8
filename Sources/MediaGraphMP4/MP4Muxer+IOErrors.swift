extension MP4Muxer {
    /// A failed write as the muxer reports it: naming the track and sample whose bytes it was
    /// writing when the byte offset falls in the media data. Sample bytes are written on another
    /// thread (`FileWriter` writes behind), so the failure comes back at a later call than the
    /// sample's own: the offset, not the call, says which sample it was.
    func ioFailure(_ e: MP4IOError) -> MP4MuxerError {
        guard !options.fragmented, let offset = e.offset, offset >= mediaBase else { return .io(e) }
        let relative = offset - mediaBase
        for t in tracks {
            if let sample = t.table.sample(containing: relative) {
                return .sampleIO(track: t.description.name, sample: sample, e)
            }
        }
        return .io(e)
    }
}

extension SampleTable {
    /// The 0-based number of the sample whose bytes cover `offset` (relative to the media data),
    /// if it is one of this track's.
    func sample(containing offset: UInt64) -> Int? {
        var first = 0
        for (k, start) in chunkOffsets.enumerated() {
            let n = Int(chunkSampleCounts[k])
            if offset >= start {
                var end = start
                for s in first..<first + n {
                    end += UInt64(sizes[s])
                    if offset < end { return s }
                }
            }
            first += n
        }
        return nil
    }
}
