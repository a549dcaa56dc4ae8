import MediaGraphCore

/// Assigns presentation positions to pictures that arrive in decode order, from their picture
/// order counts, the way a decoder's picture buffer outputs them: once more than `reorderDepth`
/// pictures wait, the one with the smallest POC is next in presentation order; a new coded video
/// sequence (IDR) first outputs everything still waiting.
///
/// Cost is linear in the number of pictures: the depth is at most `MediaLimits.maxReorderDepth`
/// (the parameter-set parsers reject more), so each picture is compared with at most 16 others.
struct PresentationOrder<Item> {
    struct Entry {
        var item: Item?
        var decodeIndex: Int
        var presentationIndex: Int?
    }

    let reorderDepth: Int
    private var entries: [Entry] = []
    private var head = 0
    /// (poc, index into entries) of pictures not yet output.
    private var waiting: [(poc: Int64, slot: Int)] = []
    private var nextPresentation = 0
    private var decoded = 0

    init(reorderDepth: Int) {
        self.reorderDepth = min(max(reorderDepth, 0), MediaLimits.maxReorderDepth)
    }

    /// Pictures pushed and not yet popped (they hold their data).
    var pendingCount: Int { entries.count - head }
    /// Pictures pushed so far.
    var pushedCount: Int { decoded }
    /// The oldest picture not yet popped.
    var oldestPending: Item? { head < entries.count ? entries[head].item : nil }

    mutating func push(_ item: Item, poc: Int64, startsSequence: Bool) {
        if startsSequence { outputAll() }
        entries.append(Entry(item: item, decodeIndex: decoded, presentationIndex: nil))
        decoded += 1
        waiting.append((poc, entries.count - 1))
        while waiting.count > reorderDepth { outputSmallest() }
    }

    /// End of stream: every waiting picture gets its position.
    mutating func finish() { outputAll() }

    /// The oldest picture in decode order, once its presentation position is known.
    mutating func pop() -> Entry? {
        guard head < entries.count, entries[head].presentationIndex != nil else { return nil }
        let e = entries[head]
        entries[head].item = nil // the caller owns the data now; keep no copy alive
        head += 1
        if head >= 32 && head * 2 >= entries.count {
            entries.removeFirst(head)
            for i in waiting.indices { waiting[i].slot -= head }
            head = 0
        }
        return e
    }

    private mutating func outputAll() {
        while !waiting.isEmpty { outputSmallest() }
    }

    private mutating func outputSmallest() {
        var best = 0
        for i in 1..<waiting.count where waiting[i].poc < waiting[best].poc { best = i }
        entries[waiting[best].slot].presentationIndex = nextPresentation
        nextPresentation += 1
        waiting.remove(at: best)
    }
}

/// An access unit waiting in `PresentationOrder`, with what its timer learnt about it.
struct PendingAccessUnit {
    var unit: AnnexBAccessUnit
    var isKeyFrame: Bool
}

extension PresentationOrder where Item == PendingAccessUnit {
    /// Checks, before `unit` is pushed, that pictures waiting for their presentation position
    /// stay within `MediaLimits` (`pendingBytes`: the size of those not yet
    /// popped) and that timestamps up to the next one fit in 64 bits.
    func checkRoom(for unit: AnnexBAccessUnit, pendingBytes: Int, frameDuration: Int64, path: String) throws {
        if pendingCount >= MediaLimits.maxPicturesAwaitingOutput || pendingBytes + unit.data.count > MediaLimits.maxBytesAwaitingOutput,
           let oldest = oldestPending {
            throw ElementaryStreamError(
                path: path, offset: oldest.unit.offset,
                message: "this picture still waits for its presentation position after \(pendingCount) access units "
                    + "(\(pendingBytes) bytes) read behind it, above the limit of \(MediaLimits.maxPicturesAwaitingOutput) "
                    + "units or \(MediaLimits.maxBytesAwaitingOutput) bytes: its picture order count does not fit a reorder depth of \(reorderDepth)")
        }
        // pts ≤ (pictures pushed) × frame duration and dts ≥ −(reorder depth) × frame duration.
        if Int64(pushedCount + 1 + reorderDepth).multipliedReportingOverflow(by: frameDuration).overflow {
            throw ElementaryStreamError(path: path, offset: unit.offset,
                                        message: "timestamp of access unit \(pushedCount) overflows 64 bits (frame duration \(frameDuration) ticks)")
        }
    }
}
