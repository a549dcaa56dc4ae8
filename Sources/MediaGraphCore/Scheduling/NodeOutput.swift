/// Where a node sends its buffers. The engine wires each output port to its consumers: a direct
/// call when the consumer runs on the same thread, a bounded queue when it has its own.
public final class NodeOutput {
    enum Link {
        case inline(RunningNode, input: Int)
        case queued(Inbox, input: Int)
    }

    var links: [[Link]]
    /// Per port, whether the progress line counts what it sends (set while wiring; empty for
    /// all but the sources counted).
    var progressPorts: [Bool] = []
    /// Per port, per link (parallel to `links`): whether that consumer stores the packets as they
    /// are, a stream copy (`ValidatedGraph.isStreamCopy`), rather than decoding them.
    var copyingLinks: [[Bool]]
    unowned let owner: RunningNode

    init(owner: RunningNode, ports: Int) {
        self.owner = owner
        links = Array(repeating: [], count: ports)
        copyingLinks = Array(repeating: [], count: ports)
    }

    /// Whether anything consumes output `port` (a file source skips the streams nobody reads).
    public func isConnected(_ port: Int) -> Bool { links.indices.contains(port) && !links[port].isEmpty }

    /// Whether some consumer of output `port` stores its packets as they are (a muxer or file
    /// sink: a stream copy), so they must make sense on their own: a copied video stream must
    /// start on a key frame, while a decoder may be fed what comes before it.
    public func isCopied(_ port: Int) -> Bool { copyingLinks.indices.contains(port) && copyingLinks[port].contains(true) }

    /// Whether some consumer of output `port` does not copy (a decoder).
    public func isDecoded(_ port: Int) -> Bool { copyingLinks.indices.contains(port) && copyingLinks[port].contains(false) }

    /// Sends a buffer on output `port` to the consumers that do not copy (decoders) only: a
    /// packet a copy must leave out (a picture before the first key frame) that a decoder can
    /// still use, as ffmpeg's decoder gets what its stream copy drops.
    public func sendSkippingCopies(_ buffer: consuming SampleBuffer, port: Int) throws {
        owner.sent.add(fromOwner: 1)
        if port < progressPorts.count && progressPorts[port] { owner.progressSent.add(fromOwner: 1) }
        for (l, copies) in zip(links[port], copyingLinks[port]) where !copies { try deliver(copy buffer, to: l) }
    }

    /// Sends a buffer on output `port`. Pass the last reference (`consume buf`): a consumer that
    /// then holds the only reference may write in place. Fan-out shares the buffer, no copy.
    public func send(_ buffer: consuming SampleBuffer, port: Int = 0) throws {
        owner.sent.add(fromOwner: 1)
        if port < progressPorts.count && progressPorts[port] { owner.progressSent.add(fromOwner: 1) }
        let ls = links[port]
        if ls.count == 1 {
            try deliver(consume buffer, to: ls[0])
        } else {
            #if MEDIAGRAPH_TSAN
            // Under the thread sanitizer every branch gets its own copy. Shared, the branches'
            // reads are ordered before the last holder's in-place write (or the block's reuse) by
            // Swift's reference count (a releasing decrement, an acquiring uniqueness check),
            // which runs in the uninstrumented runtime: the sanitizer would report a race there.
            for l in ls.dropLast() { try deliver(buffer.copy(), to: l) }
            if let last = ls.last { try deliver(consume buffer, to: last) }
            #else
            for l in ls { try deliver(copy buffer, to: l) }
            #endif
        }
    }

    /// Freezes a buffer this node built or edited and sends it on output `port`.
    public func send(_ buffer: consuming WritableBuffer, port: Int = 0) throws {
        try send(buffer.freeze(), port: port)
    }

    @inline(__always)
    private func deliver(_ buffer: consuming SampleBuffer, to link: Link) throws {
        switch link {
        case .inline(let target, let input):
            owner.calleeNanos &+= try target.receive(consume buffer, input: input)
        case .queued(let inbox, let input):
            // moved, not copied: the producer must hold no reference once the consumer can pop
            // it, or the consumer finds it shared (and copies instead of writing in place) and
            // the last release, which recycles the frame block, may happen on this thread
            var waited: UInt64 = 0
            if !inbox.push(.buffer(consume buffer), input: input, waited: &waited) { throw RunCancelled() }
            owner.calleeNanos &+= waited
        }
    }

    /// The queues whose closing means nobody wants this node's output any more (a synchronised
    /// node whose output has ended closes its queue), reached directly or behind inline filters;
    /// nil when no consumer or some path ends elsewhere (a sink called inline), so the output
    /// never closes. The wiring is fixed while the graph runs: a source works this out once, then
    /// looks only at those queues (walking the inline chain per buffer cost 40 ns per hop).
    func closingQueues() -> [Inbox]? {
        var queues: [Inbox] = []
        for ls in links {
            for l in ls {
                switch l {
                case .queued(let inbox, _): queues.append(inbox)
                case .inline(let target, _):
                    guard let more = target.output.closingQueues() else { return nil }
                    queues += more
                }
            }
        }
        return queues.isEmpty ? nil : queues
    }

    /// Tells every consumer that this node's stream has ended.
    func endOfStream() throws {
        for ls in links {
            for l in ls {
                switch l {
                case .inline(let target, let input): try target.inputEnded(input)
                case .queued(let inbox, let input): if !inbox.push(.endOfStream, input: input) { throw RunCancelled() }
                }
            }
        }
    }
}

/// Thrown inside the engine when another node's error stopped the graph.
struct RunCancelled: Error {}
