/// The cycles of a graph, for the error that refuses it: each knot of nodes that feed one
/// another (a strongly connected component, found by Tarjan's algorithm without recursion, so a
/// long cycle in a hostile file costs no stack) reported once, as the shortest loop through its
/// first node in file order. Nodes that are only downstream of a cycle are on none.
enum GraphCycles {
    /// One knot: a loop to show and the other nodes caught in it.
    struct Cycle: Equatable {
        /// Nodes in the order the edges run, starting at the knot's first node in file order;
        /// the loop closes back to `loop[0]`. One node for a node chained into itself.
        var loop: [Int]
        /// The knot's nodes that are not on `loop` (on further loops through it), in file order.
        var others: [Int]
    }

    /// The knots of the graph with `count` nodes and `edges`, ordered by their first node.
    static func find(count: Int, edges: [(from: Int, to: Int)]) -> [Cycle] {
        var successors = Array(repeating: [Int](), count: count)
        for e in edges { successors[e.from].append(e.to) }
        return components(successors).compactMap { nodes in
            let first = nodes.min()!
            guard nodes.count > 1 || successors[first].contains(first) else { return nil }
            let loop = shortestLoop(through: first, within: Set(nodes), successors)
            let on = Set(loop)
            return Cycle(loop: loop, others: nodes.filter { !on.contains($0) }.sorted())
        }.sorted { $0.loop[0] < $1.loop[0] }
    }

    /// Tarjan's strongly connected components, with an explicit stack of (node, next edge).
    static func components(_ successors: [[Int]]) -> [[Int]] {
        let n = successors.count
        var index = Array(repeating: -1, count: n), low = Array(repeating: 0, count: n)
        var onStack = Array(repeating: false, count: n)
        var stack: [Int] = [], found: [[Int]] = []
        var next = 0
        for root in 0..<n where index[root] < 0 {
            var work: [(node: Int, edge: Int)] = []
            func visit(_ v: Int) {
                index[v] = next; low[v] = next; next += 1
                stack.append(v); onStack[v] = true
                work.append((v, 0))
            }
            visit(root)
            while let (v, k) = work.last {
                if k < successors[v].count {
                    work[work.count - 1].edge += 1
                    let w = successors[v][k]
                    if index[w] < 0 { visit(w) } else if onStack[w] { low[v] = min(low[v], index[w]) }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[v]) }
                guard low[v] == index[v] else { continue }
                var component: [Int] = []
                while let w = stack.popLast() {
                    onStack[w] = false
                    component.append(w)
                    if w == v { break }
                }
                found.append(component)
            }
        }
        return found
    }

    /// The shortest loop from `start` back to itself through `nodes` (breadth first), without
    /// repeating `start` at the end.
    static func shortestLoop(through start: Int, within nodes: Set<Int>, _ successors: [[Int]]) -> [Int] {
        var parent: [Int: Int] = [:]
        var queue = [start], head = 0
        while head < queue.count {
            let v = queue[head]
            head += 1
            for w in successors[v] where nodes.contains(w) {
                if w == start {
                    var loop = [v]
                    while let p = parent[loop[0]] { loop.insert(p, at: 0) }
                    return loop
                }
                if parent[w] == nil { parent[w] = v; queue.append(w) }
            }
        }
        return [start]   // not reached: every node of a knot is on a loop
    }
}

extension GraphCycles.Cycle {
    /// Names shown of a long loop: the first ones and the last ones, the middle counted.
    static let shownHead = 8, shownTail = 3

    /// `'b' → 'c' → 'b'`, with the middle of a long loop left out, and the other nodes of the
    /// knot (`(and further loops through 'e', 'f')`).
    func text(name: (Int) -> String) -> String {
        var names = loop.map { "'\(name($0))'" }
        if names.count > Self.shownHead + Self.shownTail + 1 {
            let left = names.count - Self.shownHead - Self.shownTail
            names = names.prefix(Self.shownHead) + ["… (\(left) more)"] + names.suffix(Self.shownTail)
        }
        var s = (names + ["'\(name(loop[0]))'"]).joined(separator: " → ")
        if !others.isEmpty {
            var list = others.prefix(Self.shownHead).map { "'\(name($0))'" }
            if others.count > Self.shownHead { list.append("… (\(others.count - Self.shownHead) more)") }
            s += " (and further loops through " + list.joined(separator: ", ") + ")"
        }
        return s
    }
}
