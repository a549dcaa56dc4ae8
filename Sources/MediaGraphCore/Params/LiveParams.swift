import Synchronization

/// A node some of whose params are declared `live` (`ParamSpec.live`): they may change while the
/// graph runs (`GraphRunner.setParam`).
public protocol LiveParamsNode: MediaNode {
    /// The node's params after a change, complete and validated. Called on the node's own thread
    /// between two buffers, never during `process`; a throw stops the graph like an error in
    /// `process`.
    func update(params: ParamValues) throws
}

/// The param changes of one running node: posted from any thread, taken by the node's thread
/// before its next buffer. Only the latest values count; the node sees each change at most once.
final class ParamMailbox: Sendable {
    private let latest = Lock<ParamValues?>(nil)
    /// Set when `latest` holds values the node has not taken: one atomic load per buffer.
    /// Changed only with the lock held, so a change posted while the node takes one is neither
    /// lost nor taken twice.
    private let posted = Atomic<Bool>(false)

    init() {}

    /// Sets `name` to `value` on top of `current` (or the values posted before).
    func post(_ name: String, _ value: JSONValue, over current: ParamValues) {
        latest.withLock { v in
            var values = v ?? current
            values.set(name, value)
            v = values
            posted.store(true, ordering: .releasing)
        }
    }

    /// The values posted since the last call, or nil.
    @inline(__always)
    func take() -> ParamValues? {
        guard posted.load(ordering: .acquiring) else { return nil }
        return latest.withLock { v in
            posted.store(false, ordering: .relaxed)
            return v
        }
    }
}

/// Why a param change was refused; the message names the node and the param.
public struct ParamChangeError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension GraphRunner {
    /// Changes a param declared `live` while the graph runs, from any thread. The value is
    /// checked against the declaration now; the node takes it on its own thread before its next
    /// buffer, so frames before that use the old value and frames after it the new one.
    public func setParam(node id: String, _ name: String, to value: JSONValue) throws {
        guard let i = declarations.firstIndex(where: { $0.id == id }) else {
            if let fused = running.first(where: { ($0.instance as? FusedStagesNode)?.memberIds.contains(id) == true }) {
                throw ParamChangeError(message: "node '\(id)' runs fused into '\(fused.id)' (see `mediagraph validate`); give it \"fuse\": false to change its params while the graph runs")
            }
            throw ParamChangeError(message: "no node '\(id)' in the graph; nodes: " + declarations.map(\.id).joined(separator: ", "))
        }
        let n = declarations[i]
        let live = n.acceptsChanges ? n.info.params.filter(\.live) : []
        guard let spec = n.info.params.first(where: { $0.name == name }) else {
            var msg = "node '\(id)' (\(n.info.name)): unknown param '\(name)'"
            if let near = ClosestName.find(name, in: n.info.params.map(\.name)) { msg += "; did you mean '\(near)'?" }
            throw ParamChangeError(message: msg)
        }
        guard live.contains(where: { $0.name == spec.name }) else {
            let names = live.isEmpty ? "none" : live.map(\.name).joined(separator: ", ")
            throw ParamChangeError(message: "node '\(id)' (\(n.info.name)) param '\(name)' cannot change while the graph runs; params that can: \(names)")
        }
        if let why = ParamValidator.check(value, against: spec.type) {
            throw ParamChangeError(message: "node '\(id)' param '\(name)': expected \(spec.type.summary), found \(why)")
        }
        let value = ParamValidator.canonical(value, for: spec.type)
        if let (node, member) = n.fusedInto {
            running[node].memberMailboxes[member].post(name, value, over: n.params)
        } else {
            running[i].mailbox.post(name, value, over: n.params)
        }
    }
}

extension RunningNode {
    /// Hands the node the params posted since its last buffer, if any (on the node's thread).
    @inline(__always)
    func takeParamChanges() throws {
        for (k, box) in memberMailboxes.enumerated() {
            guard let values = box.take(), let fused = instance as? LiveFusedStagesNode else { continue }
            do { try fused.update(member: k, params: values) } catch { throw attributed(error) }
        }
        guard let values = mailbox.take() else { return }
        guard let node = ((instance as? SynchronizedVideoAdapter)?.node ?? instance) as? LiveParamsNode else { return }
        do { try node.update(params: values) } catch { throw attributed(error) }
    }
}
