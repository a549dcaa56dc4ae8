import Synchronization

// Statistics counters that one thread writes (the node's) and others only read (the progress
// line, `statistics`): a relaxed load and a relaxed store, not a read-modify-write, which on x86
// is a locked instruction. With one writer nothing is lost, and readers still see whole values.

extension Atomic where Value == Int {
    /// Adds `n`; only the counter's one writing thread may call this.
    @inline(__always) func add(fromOwner n: Int) {
        store(load(ordering: .relaxed) &+ n, ordering: .relaxed)
    }
}

extension Atomic where Value == UInt64 {
    /// Adds `n`; only the counter's one writing thread may call this.
    @inline(__always) func add(fromOwner n: UInt64) {
        store(load(ordering: .relaxed) &+ n, ordering: .relaxed)
    }
}
