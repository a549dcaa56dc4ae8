// `make bench`: every area's benchmark, each comparing against ffmpeg in the same run.
// Areas register themselves in BenchAreas.all (one file each).
import Foundation

// Areas that measure in child processes re-run this binary with `--` options after the area
// name; such a child prints no header of its own.
let arguments = Array(CommandLine.arguments.dropFirst())
let areaNames = BenchAreas.all.map(\.name)
let usage = """
    usage: mediagraph-bench [AREA ...]   (no AREA: every area, as `make bench`)
    areas: \(areaNames.joined(separator: ", "))
    environment: MEDIAGRAPH_BENCH_OURS_ONLY=1 (skip ffmpeg), MEDIAGRAPH_BENCH_ONLY=sepia,lut3d (kernel cases),
      SHADER_BENCH_NO_GEQ=1, MEDIAGRAPH_NO_AVX512=1, MEDIAGRAPH_NO_AVX2=1 (Docs/benchmarks.md)
    """
if let first = arguments.first, ["-h", "--help", "help"].contains(first) {
    print(usage)
    exit(0)
}
// An option before any area, or a name that is no area, would otherwise run everything or nothing.
if let first = arguments.first, first.hasPrefix("-") {
    FileHandle.standardError.write(Data("mediagraph-bench: unknown option '\(first)'\n\(usage)\n".utf8))
    exit(2)
}
let wanted = arguments.prefix { !$0.hasPrefix("--") }
if let unknown = wanted.first(where: { !areaNames.contains($0) }) {
    FileHandle.standardError.write(Data("mediagraph-bench: no area '\(unknown)'\n\(usage)\n".utf8))
    exit(2)
}
let isChild = arguments.contains { $0.hasPrefix("--") }
for area in BenchAreas.all where wanted.isEmpty || wanted.contains(area.name) {
    if !isChild { print("== \(area.name) ==") }
    area.run()
}
