/// Assigns presentation positions to pictures that arrive in decode order, from their picture
/// order counts, the way a decoder's picture buffer outputs them: once more than `reorderDepth`
/// pictures wait, the one with the smallest POC is next in presentation order; a new coded video
/// sequence (IDR) first outputs everything still waiting.
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

    init(reorderDepth: Int) { self.reorderDepth = reorderDepth }

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
