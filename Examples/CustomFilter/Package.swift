// swift-tools-version:6.0
import PackageDescription

// A program of its own that uses MediaGraph as a versioned dependency, declares one filter and
// runs it in a graph. The tests build it against a tagged clone of this repository (the URL below
// is redirected there with `swift package config set-mirror`), so MediaGraph stays usable this
// way: no unsafe build flags in its targets.
let package = Package(
    name: "CustomFilter",
    dependencies: [
        .package(url: "https://github.com/mediagraph/MediaGraph.git", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "custom-filter",
            dependencies: [
                .product(name: "MediaGraphCore", package: "MediaGraph"),
                .product(name: "MediaGraphNodes", package: "MediaGraph"),
            ]),
    ]
)
