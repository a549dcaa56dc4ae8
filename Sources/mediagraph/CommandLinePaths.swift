import Foundation
import MediaGraphCore

/// Paths given with `--set id.param=value` are taken against the current directory, as a shell
/// user expects (`--set in.path=holiday.mov` names ./holiday.mov); paths written in the graph
/// file stay relative to the graph file. Only params the node type declares as paths change,
/// and they are taken as typed (`--set mux.path=2024` names ./2024).
enum CommandLinePaths {
    static func resolve(in spec: inout GraphSpec, registry: NodeRegistry,
                        currentDirectory: String = FileManager.default.currentDirectoryPath) {
        for n in spec.nodes.indices where !spec.nodes[n].commandLine.isEmpty {
            guard let declared = registry.entry(spec.nodes[n].type)?.info.params else { continue }
            spec.nodes[n].readCommandLinePathsAsText(declared: declared)
            guard var members = spec.nodes[n].params?.objectMembers else { continue }
            for (param, _) in spec.nodes[n].commandLine {
                guard case .path? = declared.first(where: { $0.name == param })?.type,
                      let i = members.lastIndex(where: { $0.key == param }),
                      let value = members[i].value.stringValue,
                      !value.isEmpty, value != "-", !value.hasPrefix("/") else { continue }
                members[i].value = .string(ParamValues.resolve(value, against: currentDirectory), members[i].value.location)
            }
            spec.nodes[n].params = .object(members, spec.nodes[n].params?.location)
        }
    }
}
