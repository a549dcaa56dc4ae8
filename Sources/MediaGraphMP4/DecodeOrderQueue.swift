import MediaGraphCore

/// Samples of several tracks, arriving in any order across tracks (each track's in decode
/// order), handed out in one decode order: the smallest dts first (exact across timescales),
/// the lower track on a tie — ffmpeg's interleaver (`ff_interleave_packet_per_dts`), which
/// decides what its dash muxer sees first. A sample goes out once every track that has not
/// ended has one waiting; past `byteLimit` waiting, the earliest goes out anyway, so a track
/// that stops delivering cannot grow memory without bound.
struct DecodeOrderQueue {
    private var queues: [[MP4Sample]] = []
    private var heads: [Int] = []
    private var ended: [Bool] = []
    private var timescales: [Int64] = []
    private(set) var waitingBytes = 0
    let byteLimit: Int

    init(byteLimit: Int = 64 << 20) {
        self.byteLimit = byteLimit
    }

    mutating func addTrack(timescale: Int64) {
        queues.append([])
        heads.append(0)
        ended.append(false)
        timescales.append(timescale)
    }

    mutating func push(_ s: MP4Sample, track: Int) {
        queues[track].append(s)
        waitingBytes += s.data.count
    }

    /// The track gets no more samples: the others no longer wait for it.
    mutating func end(track: Int) { ended[track] = true }

    /// The next sample in decode order, when it can be known.
    mutating func pop() -> (track: Int, sample: MP4Sample)? {
        var best: Int?
        for k in queues.indices {
            guard heads[k] < queues[k].count else {
                if ended[k] || waitingBytes > byteLimit { continue }
                return nil
            }
            if let b = best, !(dts(k) < dts(b)) { continue }
            best = k
        }
        guard let k = best else { return nil }
        let s = queues[k][heads[k]]
        queues[k][heads[k]].data = PacketBytes([])
        heads[k] += 1
        if heads[k] == queues[k].count {
            queues[k].removeAll(keepingCapacity: true)
            heads[k] = 0
        } else if heads[k] >= 64 && heads[k] * 2 >= queues[k].count {
            queues[k].removeFirst(heads[k])
            heads[k] = 0
        }
        waitingBytes -= s.data.count
        return (k, s)
    }

    /// Removes the waiting samples of `track` whose dts is `dts` or later; returns how many.
    mutating func drop(from dts: Int64, track: Int) -> Int {
        var n = 0
        while queues[track].count > heads[track], let last = queues[track].last, last.dts >= dts {
            waitingBytes -= last.data.count
            queues[track].removeLast()
            n += 1
        }
        return n
    }

    private func dts(_ k: Int) -> MediaTime {
        MediaTime(value: queues[k][heads[k]].dts, timescale: timescales[k])
    }
}
