import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// A cycle is reported as the nodes on it, in the order the chains run, and nothing else: nodes
/// downstream of a cycle (which cannot be placed either) are not on it.
@Suite struct GraphCycleTests {
    /// The error messages validation gives `json`, with the built-in nodes.
    static func errors(_ json: String) throws -> [String] {
        do {
            _ = try GraphPlan(validating: try GraphFile.parse(text: json, file: "g.json"), registry: BuiltinNodes.makeRegistry())
        } catch let e as GraphValidationError {
            return e.errors.map(\.message)
        }
        return []
    }

    @Test func nodesDownstreamOfACycleAreNotNamed() throws {
        // b → c → b.in1 is the cycle; e and d only hang below it
        let m = try Self.errors("""
        {"nodes":{"a":{"type":"testsrc"},"b":{"type":"stack"},"c":{"type":"invert"},"e":{"type":"invert"},"d":{"type":"nullsink"}},
         "chains":[["a","b.in"],["b","c","b.in1"],["b","e","d"]]}
        """)
        #expect(m == ["the graph has a cycle 'b' → 'c' → 'b'; a graph must flow one way"])
    }

    @Test func aSelfLoopNamesOnlyItsNode() throws {
        let m = try Self.errors("""
        {"nodes":{"a":{"type":"testsrc"},"b":{"type":"stack"},"d":{"type":"nullsink"}},
         "chains":[["a","b.in"],["b","b.in1"],["b","d"]]}
        """)
        #expect(m == ["the graph has a cycle 'b' → 'b'; a graph must flow one way"])
    }

    @Test func disjointCyclesAreEachReported() throws {
        // two separate loops, the second written first in the chains; each has a node below it
        let m = try Self.errors("""
        {"nodes":{"a":{"type":"testsrc"},"b":{"type":"stack"},"c":{"type":"invert"},
                  "x":{"type":"testsrc"},"y":{"type":"stack"},"z1":{"type":"invert"},"z2":{"type":"invert"},
                  "d":{"type":"nullsink"},"w":{"type":"nullsink"}},
         "chains":[["x","y.in"],["y","z1","z2","y.in1"],["y","w"],["a","b.in"],["b","c","b.in1"],["b","d"]]}
        """)
        #expect(m == ["the graph has a cycle 'b' → 'c' → 'b'; a graph must flow one way",
                      "the graph has a cycle 'y' → 'z1' → 'z2' → 'y'; a graph must flow one way"])
    }

    /// A knot of loops through one node is one problem: the shortest loop through its first
    /// node is shown, and the other nodes caught in it are named.
    @Test func loopsSharingANodeAreOneProblem() throws {
        let m = try Self.errors("""
        {"nodes":{"a":{"type":"testsrc"},"b":{"type":"stack"},"c":{"type":"invert"},"e":{"type":"invert"},"f":{"type":"invert"},
                  "d":{"type":"nullsink"}},
         "chains":[["a","b.in"],["b","c","b.in1"],["b","e","f","b.in2"],["b","d"]]}
        """)
        #expect(m == ["the graph has a cycle 'b' → 'c' → 'b' (and further loops through 'e', 'f'); a graph must flow one way"])
    }

    /// A cycle through 901 nodes: found at once, named with its middle left out.
    @Test func aLongCycleIsFoundQuickly() throws {
        let n = 900
        let nodes = (0..<n).map { "\"f\($0)\":{\"type\":\"invert\"}" }.joined(separator: ",")
        let loop = (0..<n).map { "\"f\($0)\"" }.joined(separator: ",")
        let start = Date()
        let m = try Self.errors("""
        {"nodes":{"a":{"type":"testsrc"},"b":{"type":"stack"},\(nodes)},"chains":[["a","b.in"],["b",\(loop),"b.in1"]]}
        """)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(m == ["the graph has a cycle 'b' → 'f0' → 'f1' → 'f2' → 'f3' → 'f4' → 'f5' → 'f6' → … (890 more) → 'f897' → 'f898' → 'f899' → 'b'; a graph must flow one way"])
    }
}
