#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// The files an `imageseq` source reads, in order: either a numbered pattern
/// (`frame-%05d.png`: from the start number up to the first number without a file) or a glob
/// (`shots/*.jpg`: every match, sorted by name).
enum ImageSequenceFiles {
    /// How many numbers are tried for the first file when no start number is given (ffmpeg's
    /// image2 `start_number_range`).
    static let startSearch = 5
    /// At most this many files from a glob.
    static let maxGlobMatches = 10_000_000

    enum Kind {
        case numbered(ImageNamePattern, first: Int)
        case glob([String])
    }

    static func isGlob(_ path: String) -> Bool { path.contains { $0 == "*" || $0 == "?" || $0 == "[" } }

    /// Finds the first file; errors name the param and the files tried.
    static func open(_ path: String, startNumber: Int?) throws -> Kind {
        if isGlob(path) && !path.contains("%") {
            let matches = try glob(path)
            guard !matches.isEmpty else { throw NodeFailure("param 'path': no file matches '\(path)'") }
            return .glob(matches)
        }
        let pattern = try ImageNamePattern(path, param: "path")
        guard pattern.hasNumber, !pattern.hasTime else {
            if !pattern.hasNumber && !pattern.hasTime {
                // one file: a sequence of one picture
                guard exists(path) else { throw NodeFailure("param 'path': cannot read '\(path)': \(reason(path))") }
                return .glob([path])
            }
            throw NodeFailure("param 'path': '\(path)': a source pattern takes a number field (%d, %05d) or glob characters (*, ?, [), not %t")
        }
        let candidates = startNumber.map { [$0] } ?? Array(0..<startSearch)
        for n in candidates where exists(pattern.name(number: n, seconds: 0)) { return .numbered(pattern, first: n) }
        let tried = candidates.map { "'\(pattern.name(number: $0, seconds: 0))'" }
        if tried.count == 1 {
            throw NodeFailure("param 'path': the first file \(tried[0]) cannot be read: \(reason(pattern.name(number: candidates[0], seconds: 0)))")
        }
        throw NodeFailure("param 'path': no first file: none of \(tried.joined(separator: ", ")) exists (set 'start-number' if the numbers start elsewhere)")
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    static func reason(_ path: String) -> String {
        var st = stat()
        if stat(path, &st) != 0 { return String(cString: strerror(errno)) }
        return (st.st_mode & S_IFMT) == S_IFDIR ? "it is a directory" : "not a regular file"
    }

    static func glob(_ pattern: String) throws -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        let rc = Glibc.glob(pattern, 0, nil, &g)
        if rc == GLOB_NOMATCH { return [] }
        guard rc == 0 else { throw NodeFailure("param 'path': cannot list '\(pattern)' (glob error \(rc))") }
        let count = Int(g.gl_pathc)
        guard count <= maxGlobMatches else {
            throw NodeFailure("param 'path': '\(pattern)' matches \(count) files, more than the \(maxGlobMatches) a sequence may have")
        }
        var out: [String] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            if let p = g.gl_pathv[i] { out.append(String(cString: p)) }
        }
        return out.filter(exists)  // directories that match are not pictures
    }
}
