// `make bench`: every area's benchmark, each comparing against ffmpeg in the same run.
// Areas register themselves in BenchAreas.all (one file each).
import Foundation

let wanted = Set(CommandLine.arguments.dropFirst())
for area in BenchAreas.all where wanted.isEmpty || wanted.contains(area.name) {
    print("== \(area.name) ==")
    area.run()
}
