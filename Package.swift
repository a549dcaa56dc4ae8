// swift-tools-version:6.0
import PackageDescription

// Layering (see Docs/architecture.md): core at the bottom; kernels, shader, codecs and mp4 beside
// each other; built-in nodes adapt them to the engine; the CLI on top. A lower module never
// imports a higher one. Only the codecs module (through the C system-library targets) touches C
// libraries; kernels and shader use the compiler's x86 intrinsics (instructions, not libraries).
// No unsafe flags in a product's targets: SwiftPM refuses them in a package used as a versioned
// dependency (Examples/CustomFilter, built by the tests against a tagged clone, checks it); test
// targets, in no product, may have them (`testCodeSettings`). Code for
// AVX2+FMA CPUs is C whose functions carry `__attribute__((target("avx2,fma")))`, called only
// after the CPU check; the hot loops get their speed from raw pointers and C, not -Ounchecked
// (Docs/benchmarks.md has the measurements).

// Most test targets are compiled without optimization, also in `make test`'s release build: the
// code under test is the library modules, optimized as `make run` builds them, and these tests'
// own code mostly launches processes and compares what they write. Optimizing EndToEndTests alone
// took 2 of the build's 7.5 minutes on 2 cores (50 s without), for no gain in the tests' run time
// once their byte comparisons were plain loops. The kernel and shader tests stay optimized: they
// compute a reference for every pixel in Double, several times slower unoptimized.
let testCodeSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "MediaGraph",
    products: [
        .executable(name: "mediagraph", targets: ["mediagraph"]),
        .library(name: "MediaGraphCore", targets: ["MediaGraphCore"]),
        .library(name: "MediaGraphNodes", targets: ["MediaGraphNodes"]),
        .library(name: "MediaGraphPluginKit", targets: ["MediaGraphPluginKit"]),
        // the readers of untrusted input, for Fuzz/ (libFuzzer harnesses) and other packages
        .library(name: "MediaGraphKernels", targets: ["MediaGraphKernels"]),
        .library(name: "MediaGraphShader", targets: ["MediaGraphShader"]),
        .library(name: "MediaGraphMP4", targets: ["MediaGraphMP4"]),
        .library(name: "MediaGraphCodecs", targets: ["MediaGraphCodecs"]),
        .library(name: "MediaGraphPlugins", targets: ["MediaGraphPlugins"]),
        // the example run-time plugin: .build/<config>/libExampleFilters.so
        .library(name: "ExampleFilters", type: .dynamic, targets: ["ExampleFilters"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // core: time, formats, buffers and pools, ports, nodes, graph, negotiation, scheduler.
        .target(name: "MediaGraphCore"),
        // kernels: pixel kernels on plane pointers, SIMD, row bands across cores.
        .target(name: "MediaGraphKernels", dependencies: ["MediaGraphCore", "MediaGraphKernelsAVX2"]),
        // row loops for AVX2+FMA CPUs (C; empty elsewhere), chosen at run time by the kernels.
        .target(name: "MediaGraphKernelsAVX2"),
        // shader: the GLSL-like language compiled to row kernels.
        .target(name: "MediaGraphShader", dependencies: ["MediaGraphCore", "MediaGraphKernels", "MediaGraphShaderTiles"]),
        // the shader's instruction set and the entry point of its tile loop (the hot path)...
        .target(name: "MediaGraphShaderTiles", dependencies: ["CMediaGraphShaderTiles"]),
        // ...which is C, one source built twice: baseline and AVX2+FMA, chosen at run time.
        .target(name: "CMediaGraphShaderTiles"),
        // C libraries, each a module map and a shim header only.
        .systemLibrary(name: "CAVCodec", pkgConfig: "libavcodec",
                       providers: [.apt(["libavcodec-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CSwscale", pkgConfig: "libswscale", providers: [.apt(["libswscale-dev"])]),
        .systemLibrary(name: "CVPX", pkgConfig: "vpx", providers: [.apt(["libvpx-dev"])]),
        .systemLibrary(name: "CAVFormat", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev"])]),
        .systemLibrary(name: "CSwresample", pkgConfig: "libswresample", providers: [.apt(["libswresample-dev"])]),
        // GIF colour quantization (libimagequant) and animated WebP (libwebp's WebPAnimEncoder).
        .systemLibrary(name: "CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux", providers: [.apt(["libwebp-dev"])]),
        // glyphs for drawtext (FreeType, as ffmpeg's drawtext) and font lookup by name (fontconfig).
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev", "libfontconfig-dev"])]),
        // ASS/SSA subtitles rendered with libass (as ffmpeg's ass filter), for the `ass` node.
        .systemLibrary(name: "CASS", pkgConfig: "libass", providers: [.apt(["libass-dev"])]),
        // codecs: thin Swift over libavformat (reading containers), libavcodec, libvpx,
        // libswscale and libswresample (and FreeType/fontconfig for text, libass for ASS subtitles).
        .target(name: "MediaGraphCodecs", dependencies: ["MediaGraphCore", "CAVCodec", "CAVFormat", "CSwscale", "CSwresample", "CVPX",
                                                         "CImageQuant", "CWebP", "CFreeType", "CASS"]),
        // mp4: ISO BMFF writer, elementary-stream readers/writers (Annex B, IVF, ADTS), pure Swift.
        .target(name: "MediaGraphMP4", dependencies: ["MediaGraphCore"]),
        // matroska: Matroska/WebM writer beside mp4 (shares its avcC/hvcC records), pure Swift, knows nothing of graphs.
        .target(name: "MediaGraphMatroska", dependencies: ["MediaGraphCore", "MediaGraphMP4"]),
        // built-in nodes: adapters from the modules above to the node protocols.
        .target(name: "MediaGraphNodes",
                dependencies: ["MediaGraphCore", "MediaGraphKernels", "MediaGraphShader",
                               "MediaGraphCodecs", "MediaGraphMP4", "MediaGraphMatroska"]),
        // plugins: the C plugin interface (header only), the loader (C plugins and frei0r), the
        // Swift kit for writing plugins, and the example plugin.
        .target(name: "CMediaGraphPlugin"),
        .target(name: "MediaGraphPlugins", dependencies: ["MediaGraphCore", "CMediaGraphPlugin", "MediaGraphPluginKit"]),
        .target(name: "MediaGraphPluginKit", dependencies: ["MediaGraphCore", "CMediaGraphPlugin"]),
        .target(name: "ExampleFilters", dependencies: ["MediaGraphPluginKit", "MediaGraphKernels"], path: "Plugins/ExampleFilters"),
        .executableTarget(name: "mediagraph",
                          dependencies: ["MediaGraphNodes", "MediaGraphCore", "MediaGraphCodecs", "MediaGraphPlugins",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        // benchmarks against ffmpeg in the same run (`make bench`); each area adds one file.
        .executableTarget(name: "mediagraph-bench",
                          dependencies: ["MediaGraphCore", "MediaGraphKernels", "MediaGraphShader",
                                         "MediaGraphCodecs", "MediaGraphMP4", "MediaGraphNodes", "MediaGraphPlugins",
                                         "CGLESHarness"]),
        // the bench's OpenGL ES harness (Mesa's llvmpipe through EGL, opened with dlopen at run time).
        .target(name: "CGLESHarness", linkerSettings: [.linkedLibrary("dl")]),

        .testTarget(name: "MediaGraphCoreTests", dependencies: ["MediaGraphCore"], swiftSettings: testCodeSettings),
        .testTarget(name: "MediaGraphKernelsTests", dependencies: ["MediaGraphKernels", "MediaGraphCore"]),
        .testTarget(name: "MediaGraphShaderTests", dependencies: ["MediaGraphShader", "MediaGraphKernels", "MediaGraphCore"]),
        .testTarget(name: "MediaGraphCodecsTests", dependencies: ["MediaGraphCodecs", "MediaGraphCore"], swiftSettings: testCodeSettings),
        // Writes a fragmented MP4 slowly so a test can SIGKILL it mid-file (MP4 tests only).
        .executableTarget(name: "mp4-fragment-writer", dependencies: ["MediaGraphMP4", "MediaGraphCore"]),
        .testTarget(name: "MediaGraphMP4Tests", dependencies: ["MediaGraphMP4", "MediaGraphCore", "mp4-fragment-writer"], swiftSettings: testCodeSettings),
        .testTarget(name: "MediaGraphPluginsTests",
                    dependencies: ["MediaGraphPlugins", "MediaGraphCore", "MediaGraphNodes", "MediaGraphKernels"], swiftSettings: testCodeSettings),
        // CWebP: the animated WebP tests decode with libwebp's own demuxer (ffmpeg 5.1 cannot)
        .testTarget(name: "EndToEndTests", dependencies: ["MediaGraphCore", "MediaGraphNodes", "CWebP"], swiftSettings: testCodeSettings),
    ]
)
