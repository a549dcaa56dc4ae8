// `make bench`: every area's benchmark, each comparing against ffmpeg in the same run.
// Areas register themselves in BenchAreas.all (one file each).
import Foundation

// Areas that measure in child processes re-run this binary with `--` options after the area
// name; such a child prints no header of its own.
let arguments = Array(CommandLine.arguments.dropFirst())
let isChild = arguments.contains { $0.hasPrefix("--") }
let wanted = Set(arguments.prefix { !$0.hasPrefix("--") })
for area in BenchAreas.all where wanted.isEmpty || wanted.contains(area.name) {
    if !isChild { print("== \(area.name) ==") }
    area.run()
}
