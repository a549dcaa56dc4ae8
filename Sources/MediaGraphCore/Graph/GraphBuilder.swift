/// Validates a `GraphSpec` and instantiates it in one call: `GraphPlan(validating:registry:)`
/// (pure: node types, params, edges against declared ports, cycles, output paths — every problem
/// reported together), then `GraphPlan.instantiate` (nodes created, formats negotiated, the
/// registry's adapters inserted where formats do not meet and reported in `notes`). Use the two
/// steps directly to validate once and instantiate a plan several times.
public enum GraphBuilder {
    public static func build(_ spec: GraphSpec, registry: NodeRegistry, stop: StopFlag = StopFlag(),
                             for purpose: GraphPurpose = .run) throws -> ValidatedGraph {
        try GraphPlan(validating: spec, registry: registry).instantiate(stop: stop, for: purpose)
    }
}
