import MediaGraphCore

/// A detector's JSON file: an array of objects written as they are found, moved into place whole
/// at the end (`OutputFile`), nothing if the run fails. Nothing is kept in memory.
final class JSONListFile {
    private let file: OutputFile
    private(set) var count = 0

    /// Creates the file: call it when the run starts.
    init(path: String) throws {
        file = try OutputFile(path: path)
        try file.write("[")
    }

    /// One object; `members` is its inside, e.g. `"time": 2.0, "score": 21.8`.
    func append(_ members: String) throws {
        try file.write("\(count == 0 ? "" : ",")\n  {\(members)}")
        count += 1
    }

    func finish() throws {
        try file.write(count == 0 ? "]\n" : "\n]\n")
        try file.commit()
    }

    func discard() { file.discard() }
}
