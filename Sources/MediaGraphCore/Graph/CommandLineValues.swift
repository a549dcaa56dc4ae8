/// A param value given on the command line (`--set id.param=value`) rather than written in the
/// graph file. It has no place in the file, so messages about it name the argument instead.
public struct CommandLineValue: Sendable, Equatable {
    /// The argument as given: `in.path=holiday.mov`.
    public var argument: String
    /// The value's text after `=`, as typed.
    public var text: String

    public init(argument: String, text: String) {
        self.argument = argument
        self.text = text
    }
}

extension GraphSpec.Node {
    /// Takes each path param given with `--set` as the text typed when JSON would read it as
    /// something else: `--set mux.path=2024` names the file 2024, not the number. A JSON string
    /// (`--set 'out.path="a b.y4m"'`) is still read as JSON. `declared` are the node type's params.
    public mutating func readCommandLinePathsAsText(declared: [ParamSpec]) {
        guard !commandLine.isEmpty, var members = params?.objectMembers else { return }
        for i in members.indices {
            guard let given = commandLine[members[i].key], members[i].value.stringValue == nil,
                  case .path? = declared.first(where: { $0.name == members[i].key })?.type else { continue }
            members[i].value = .string(given.text, nil)
        }
        params = .object(members, params?.location)
    }

    /// `problem` as said of a value given with `--set`: led by the argument, with no place in
    /// the file (the value is not in it). Problems about other params are returned unchanged.
    func attributing(_ problem: GraphDiagnostic) -> GraphDiagnostic {
        guard problem.node == id, let param = problem.param, let given = commandLine[param] else { return problem }
        var d = problem
        d.message = "--set '\(given.argument)': " + d.message
        d.file = nil
        d.location = nil
        return d
    }
}

extension GraphPlan.Node {
    /// `" (given --set in.path=x.mov)"` for a node given params with `--set`, else empty: added
    /// to a failure of the node as a whole, which may come from one of them.
    var commandLineNote: String {
        guard !commandLine.isEmpty else { return "" }
        return " (given " + commandLine.sorted { $0.key < $1.key }.map { "--set \($0.value.argument)" }.joined(separator: " ") + ")"
    }
}
