import Foundation
import MediaGraphCore

/// Paths given with `--set id.param=value` are taken against the current directory, as a shell
/// user expects (`--set in.path=holiday.mov` names ./holiday.mov); paths written in the graph
/// file stay relative to the graph file. Only params the node type declares as paths change.
enum CommandLinePaths {
    static func resolve(_ overrides: [String], in spec: inout GraphSpec, registry: NodeRegistry,
                        currentDirectory: String = FileManager.default.currentDirectoryPath) {
        for o in overrides {
            guard let eq = o.firstIndex(of: "="), let dot = o[..<eq].firstIndex(of: ".") else { continue }
            let id = String(o[..<dot]), param = String(o[o.index(after: dot)..<eq])
            guard let n = spec.nodes.firstIndex(where: { $0.id == id }),
                  let declared = registry.entry(spec.nodes[n].type)?.info.params.first(where: { $0.name == param }),
                  case .path = declared.type,
                  var members = spec.nodes[n].params?.objectMembers,
                  let i = members.lastIndex(where: { $0.key == param }),
                  let value = members[i].value.stringValue,
                  !value.isEmpty, value != "-", !value.hasPrefix("/") else { continue }
            // the last --set of a param is the value the graph holds
            members[i].value = .string(ParamValues.resolve(value, against: currentDirectory), members[i].value.location)
            spec.nodes[n].params = .object(members, spec.nodes[n].params?.location)
        }
    }
}
