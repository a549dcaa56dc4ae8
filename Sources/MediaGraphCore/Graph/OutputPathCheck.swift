#if canImport(Glibc)
import Glibc
#endif

/// Refuses, before anything runs, a graph whose outputs are one file (two sinks would write one
/// temporary and leave a corrupt file) or whose output is one of its inputs (the run would
/// replace what it reads). Files are compared by what they are — device and inode, following
/// links — not by how the paths are spelt: `./a.mp4` and `a.mp4`, or `dir/a.mp4` and
/// `link-to-dir/a.mp4`, are one output; an output that is a hard link or a symbolic link to an
/// input is that input. Paths come from params declared with a `PathRole`. Only `stat` is used:
/// nothing is created or written.
enum OutputPathCheck {
    /// One node's validated params and their declarations.
    struct Node {
        var id: String
        var specs: [ParamSpec]
        var params: ParamValues
        var location: SourceLocation?
    }

    /// What a path is on disk: the file it reaches (when it exists), and the directory entry it
    /// names — the nearest existing ancestor directory plus the rest of the path.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        /// Components below that file ("" for the file itself).
        var rest: String
    }

    struct PathUse {
        var node: String
        var param: String
        var path: String
        var location: SourceLocation?
    }

    static func check(_ nodes: [Node], file: String?) -> [GraphDiagnostic] {
        var problems: [GraphDiagnostic] = []
        var inputs: [Identity: PathUse] = [:]
        var outputs: [Identity: PathUse] = [:]
        var standardOutput: PathUse?
        let uses = nodes.flatMap { n in
            n.specs.filter { $0.pathRole != .other }.compactMap { spec -> (PathRole, PathUse)? in
                guard let p = n.params.path(spec.name) else { return nil }
                return (spec.pathRole, PathUse(node: n.id, param: spec.name, path: p, location: n.params[spec.name]?.location ?? n.location))
            }
        }
        for (role, use) in uses where role == .input && use.path != "-" {
            if let id = target(of: use.path), inputs[id] == nil { inputs[id] = use }
        }
        for (role, use) in uses where role == .output {
            func refuse(_ why: String) {
                problems.append(.error("node '\(use.node)' param '\(use.param)': output '\(use.path)' \(why)",
                                       node: use.node, param: use.param, file: file, at: use.location))
            }
            if use.path == "-" {
                if let other = standardOutput {
                    refuse("is standard output, which node '\(other.node)' writes too; two sinks cannot write one file")
                }
                standardOutput = standardOutput ?? use
                continue
            }
            let reached = target(of: use.path)
            if let reached, let input = inputs[reached] {
                refuse("is the input of node '\(input.node)' (param '\(input.param)', '\(input.path)'); writing it would replace what the graph reads")
                continue
            }
            // two outputs collide when they name one directory entry (one temporary, one final
            // rename); two entries that are links to one file are each replaced by their own file
            guard let name = entry(of: use.path) else { continue }
            if let other = outputs[name] {
                refuse("is the same file as the output of node '\(other.node)' ('\(other.path)'); two sinks cannot write one file")
                continue
            }
            outputs[name] = use
        }
        return problems
    }

    /// The file `path` reaches, following links; nil when there is none.
    static func target(of path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), rest: "")
    }

    /// The directory entry `path` names: its nearest existing ancestor directory (links
    /// followed) and the remaining components, normalized.
    static func entry(of path: String) -> Identity? {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while let last = components.popLast() {
            rest.insert(last, at: 0)
            let dir = (path.hasPrefix("/") ? "/" : "") + components.joined(separator: "/")
            if let id = target(of: dir.isEmpty ? "." : dir) {
                return Identity(device: id.device, inode: id.inode, rest: normalize(rest))
            }
        }
        return nil
    }

    /// "a/./b/../c" → "a/c" (lexically: these components do not exist yet).
    static func normalize(_ parts: [String]) -> String {
        var out: [String] = []
        for p in parts where p != "." {
            if p == "..", let last = out.last, last != ".." { out.removeLast() } else { out.append(p) }
        }
        return out.joined(separator: "/")
    }
}
