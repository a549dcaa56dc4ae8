// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses, one executable per reader of untrusted input (Docs/limits.md lists them).
// Built only by `make fuzz` (Fuzz/run.sh), which compiles every module with
// -sanitize=fuzzer,address, so the code under test is instrumented as well as the harness. A
// package of its own, so the main package carries no fuzzing flags and `make test` never builds
// these. Swift 6 language mode, as the main package. (Its directory is not named after the
// repository: SwiftPM names a path package by its directory, and a clone called "fuzz" would
// clash with a package in "Fuzz".)
/// Each harness and the MediaGraph libraries it reaches.
let harnesses: [(name: String, libraries: [String])] = [
    ("fuzz-graph", ["MediaGraphCore", "MediaGraphNodes"]),
    ("fuzz-shader", ["MediaGraphCore", "MediaGraphShader"]),
    ("fuzz-cube", ["MediaGraphKernels"]),
    ("fuzz-subtitles", ["MediaGraphNodes"]),
    ("fuzz-acv", ["MediaGraphKernels"]),
    ("fuzz-y4m", ["MediaGraphNodes"]),
    ("fuzz-wav", ["MediaGraphNodes"]),
    ("fuzz-h264", ["MediaGraphCore", "MediaGraphMP4"]),
    ("fuzz-hevc", ["MediaGraphCore", "MediaGraphMP4"]),
    ("fuzz-paramsets", ["MediaGraphMP4"]),
    ("fuzz-ivf", ["MediaGraphMP4"]),
    ("fuzz-adts", ["MediaGraphMP4"]),
    ("fuzz-time", ["MediaGraphCore"]),
    ("fuzz-mp4mux", ["MediaGraphCore", "MediaGraphMP4"]),
    ("fuzz-plugin", ["MediaGraphCore", "MediaGraphPlugins"]),
    ("fuzz-decode", ["MediaGraphCore", "MediaGraphCodecs", "MediaGraphMP4"]),
    ("fuzz-records", ["MediaGraphCore", "MediaGraphMP4"]),
    ("fuzz-filesrc", ["MediaGraphCore", "MediaGraphCodecs", "MediaGraphNodes"]),
    ("fuzz-image", ["MediaGraphCore", "MediaGraphCodecs", "MediaGraphNodes"]),
]

let package = Package(
    name: "MediaGraphFuzz",
    products: [
        // The plugin whose declaration fuzz-plugin sets from its input (loaded with dlopen).
        .library(name: "FuzzPlugin", type: .dynamic, targets: ["FuzzPlugin"]),
    ] + harnesses.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [.package(name: "MediaGraph", path: "../..")],
    targets: [
        // Starts libFuzzer from a harness's top-level code.
        .target(name: "FuzzDriver"),
        .target(name: "FuzzPlugin"),
    ] + harnesses.map { h in
        .executableTarget(name: h.name,
                          dependencies: ["FuzzDriver"] + h.libraries.map { .product(name: $0, package: "MediaGraph") })
    }
)
