/// The sample table of one track as it grows (stts, ctts, stss, stsz, stsc, stco/co64 data),
/// run-length encoded where the boxes are, so memory per sample is a few bytes.
struct SampleTable {
    private(set) var sizes: [UInt32] = []
    /// stts runs: (sample count, delta). The last sample's delta is added by `close`.
    private(set) var timeRuns: [(count: UInt32, delta: UInt32)] = []
    /// ctts runs: (sample count, pts − dts).
    private(set) var offsetRuns: [(count: UInt32, offset: Int64)] = []
    /// 1-based numbers of the sync samples.
    private(set) var syncSamples: [UInt32] = []
    /// Chunk offsets relative to the start of the media data, and samples per chunk.
    private(set) var chunkOffsets: [UInt64] = []
    private(set) var chunkSampleCounts: [UInt32] = []

    private(set) var firstDTS: Int64 = 0
    private(set) var lastDTS: Int64 = 0
    private var lastDurationHint: Int64 = 0
    private var lastDelta: Int64 = 0
    /// Smallest pts and largest pts + duration seen (absolute, track timescale).
    private(set) var minPTS: Int64 = .max
    private(set) var maxEnd: Int64 = .min
    private var pendingPTS: Int64 = 0
    private(set) var totalBytes: UInt64 = 0
    private(set) var maxSampleSize: UInt32 = 0
    private(set) var closed = false
    /// Samples of one constant size (QuickTime PCM: sample frames), kept as a count only.
    private(set) var constantSize: UInt32?
    private var constantCount = 0

    var count: Int { sizes.count + constantCount }
    var allSync: Bool { constantSize != nil || syncSamples.count == sizes.count }
    var hasCompositionOffsets: Bool { offsetRuns.contains { $0.offset != 0 } }
    var hasNegativeOffsets: Bool { offsetRuns.contains { $0.offset < 0 } }
    var maxChunkOffset: UInt64 { chunkOffsets.last ?? 0 }

    /// Sum of all sample durations (valid after `close`).
    var mediaDuration: Int64 { lastDTS - firstDTS + lastDelta }
    /// Composition time of the first presented sample, relative to the first dts.
    var firstCompositionTime: Int64 { minPTS == .max ? 0 : minPTS - firstDTS }

    mutating func startChunk(at offset: UInt64) {
        chunkOffsets.append(offset)
        chunkSampleCounts.append(0)
    }

    /// Adds a sample to the current chunk. The caller checked that dts increases.
    mutating func add(size: Int, pts: Int64, dts: Int64, duration: Int64, isSync: Bool) {
        if sizes.isEmpty {
            firstDTS = dts
        } else {
            let delta = dts - lastDTS
            appendDelta(delta)
            noteEnd(pts: pendingPTS, duration: delta)
        }
        sizes.append(UInt32(truncatingIfNeeded: size))
        maxSampleSize = max(maxSampleSize, UInt32(truncatingIfNeeded: size))
        totalBytes += UInt64(size)
        let offset = pts - dts
        if let last = offsetRuns.last, last.offset == offset {
            offsetRuns[offsetRuns.count - 1].count += 1
        } else {
            offsetRuns.append((1, offset))
        }
        if isSync { syncSamples.append(UInt32(sizes.count)) }
        chunkSampleCounts[chunkSampleCounts.count - 1] += 1
        minPTS = min(minPTS, pts)
        pendingPTS = pts
        lastDTS = dts
        lastDurationHint = duration
    }

    /// Adds `frames` samples of `frameSize` bytes each, one tick apart from `dts` on, to the
    /// current chunk (QuickTime PCM: a packet of sample frames). Every one is a sync sample.
    mutating func addFrames(_ frames: Int, frameSize: Int, dts: Int64) {
        guard frames > 0 else { return }
        if count == 0 {
            firstDTS = dts
        } else {
            let delta = dts - lastDTS
            appendDelta(delta)
            noteEnd(pts: pendingPTS, duration: delta)
        }
        for _ in 1..<frames { appendDelta(1) }
        constantSize = UInt32(truncatingIfNeeded: frameSize)
        constantCount += frames
        maxSampleSize = UInt32(truncatingIfNeeded: frameSize)
        totalBytes += UInt64(frames * frameSize)
        if let last = offsetRuns.last, last.offset == 0 {
            offsetRuns[offsetRuns.count - 1].count += UInt32(frames)
        } else {
            offsetRuns.append((UInt32(frames), 0))
        }
        chunkSampleCounts[chunkSampleCounts.count - 1] += UInt32(frames)
        minPTS = min(minPTS, dts)
        pendingPTS = dts + Int64(frames - 1)
        lastDTS = pendingPTS
        lastDurationHint = 1
    }

    /// Ends the table: the last sample lasts its own duration, else as long as the one before.
    mutating func close() {
        guard !closed, count > 0 else { return }
        closed = true
        let d = lastDurationHint > 0 ? lastDurationHint : (lastDelta > 0 ? lastDelta : 1)
        appendDelta(d)
        noteEnd(pts: pendingPTS, duration: d)
    }

    private mutating func appendDelta(_ delta: Int64) {
        lastDelta = delta
        let d = UInt32(clamping: delta)
        if let last = timeRuns.last, last.delta == d {
            timeRuns[timeRuns.count - 1].count += 1
        } else {
            timeRuns.append((1, d))
        }
    }

    private mutating func noteEnd(pts: Int64, duration: Int64) {
        maxEnd = max(maxEnd, pts + duration)
    }
}
