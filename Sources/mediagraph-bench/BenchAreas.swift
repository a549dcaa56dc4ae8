/// One benchmark area: a name (selectable as `mediagraph-bench NAME`) and its run function.
struct BenchArea: Sendable {
    let name: String
    let run: @Sendable () -> Void
}

enum BenchAreas {
    /// Add one line per area.
    static let all: [BenchArea] = [
        BenchArea(name: "engine", run: EngineBench.run),
        GraphCostBench.area,
        BenchArea(name: "kernels", run: KernelBench.run),
        BenchArea(name: "codecs", run: CodecBench.run),
        MP4Bench.area,
        DecodeBench.area,
        TranscodeBench.area,
        StreamCopyBench.area,
        GifBench.area,
        MemoryBench.area,
        BenchArea(name: "shader", run: ShaderBench.run),
        LlvmpipeBench.area,
        BenchArea(name: "plugins", run: PluginBench.run),
        PicturesBench.area,
        PicturesBench.snapshotArea,
        SyncBench.area,
        ConcatBench.area,
        OverlayBench.area,
        FusionBench.area,
        ColorChainEncodeBench.area,
        SegmentsBench.area,
        LadderBench.area,
    ]
}
