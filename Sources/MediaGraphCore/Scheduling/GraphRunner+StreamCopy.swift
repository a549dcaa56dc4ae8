extension GraphRunner {
    /// Whether node `n` is a sink fed only encoded packets, each straight from one and the same
    /// source and shared with no other consumer: a stream copy into a muxer or a file. Such a
    /// sink runs on the source's thread, called in turn like an inline filter. Packets read from
    /// a file cost almost nothing to make, so a queue and a thread in front of the sink would
    /// overlap little work and cost a thread hand-off (two futex calls) per packet; on the
    /// source's thread the inputs arrive one at a time already, in the file's interleaving.
    /// A node that decodes (it has outputs) keeps its own thread.
    func storesPacketsOfOneSource(_ n: Int) -> Bool {
        guard graph.nodes[n].outputFormats.isEmpty else { return false }
        let producers = graph.producers(of: n)
        guard let source = producers.first?.from, running[source].instance is SourceNode else { return false }
        return producers.allSatisfy { c in
            c.from == source && graph.nodes[source].outputFormats[c.fromPort].isEncoded
                && graph.consumers(of: source, port: c.fromPort).count == 1
        }
    }
}
