/// The order in which a synchronised node sees its inputs: by the node type's port declarations,
/// then by the number after a repeatable port's name (`in`, `in1`, `in2`, … `in10`), whatever the
/// order of the graph file's edges. The node's `configure` and the engine use the same order.
public enum SyncInputOrder {
    /// For each position in input order, the index of the connected port (as `configure` and
    /// `process` index them) that takes it.
    public static func order(of ports: [String], in info: NodeTypeInfo) -> [Int] {
        ports.indices.sorted { key(ports[$0], info) < key(ports[$1], info) }
    }

    /// The connected inputs in input order.
    public static func ordered(_ inputs: [InputFormat], in info: NodeTypeInfo) -> [InputFormat] {
        order(of: inputs.map(\.port), in: info).map { inputs[$0] }
    }

    /// The number a port name carries after its declared name: 0 for `in`, 3 for `in3`.
    public static func number(of port: String, in info: NodeTypeInfo) -> Int {
        key(port, info).number
    }

    private struct Key: Comparable {
        var spec: Int
        var number: Int
        var name: String
        static func < (a: Key, b: Key) -> Bool { (a.spec, a.number, a.name) < (b.spec, b.number, b.name) }
    }

    private static func key(_ port: String, _ info: NodeTypeInfo) -> Key {
        guard let s = info.inputs.firstIndex(where: { $0.matches(port) }) else { return Key(spec: Int.max, number: 0, name: port) }
        let digits = port.dropFirst(info.inputs[s].name.count)
        return Key(spec: s, number: digits.isEmpty ? 0 : Int(digits) ?? Int.max, name: port)
    }
}
