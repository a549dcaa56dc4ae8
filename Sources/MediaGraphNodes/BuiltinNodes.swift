import MediaGraphCore

/// The node types that ship with MediaGraph. Adding a node is one line here.
public enum BuiltinNodes {
    public static func register(into r: NodeRegistry) {
        r.add(TestSource.self)
        r.add(Y4MSource.self)
        r.add(Y4MSink.self)
        r.add(RawSource.self)
        r.add(RawSink.self)
        r.add(NullSink.self)
        r.add(FrameHashSink.self)
        r.add(PCMSink.self)
        r.add(WAVSink.self)
        r.add(SineSource.self)
        r.add(WAVSource.self)
        r.add(FileSource.self)
        r.add(ImageSource.self)
        // filters
        r.add(InvertFilter.self)
        r.add(GrayscaleFilter.self)
        r.add(SepiaFilter.self)
        r.add(BrightnessFilter.self)
        r.add(ContrastFilter.self)
        r.add(SaturationFilter.self)
        r.add(ExposureFilter.self)
        r.add(GammaFilter.self)
        r.add(HueFilter.self)
        r.add(ColorMatrixFilter.self)
        r.add(LevelsFilter.self)
        r.add(CurvesFilter.self)
        r.add(RGBFilter.self)
        r.add(LUT3DFilter.self)
        r.add(ConvertNode.self)
        r.addAdapter(ConvertNode.adapter)
        r.addFusion(ColorMapFusion.fusion)
        r.addFusion(ShaderFusion.fusion)
        r.add(ScaleNode.self)
        r.addAdapter(ScaleNode.adapter)
        r.add(RotateNode.self)
        r.add(FrameRateNode.self)
        r.add(FadeNode.self)
        r.add(DrawTextNode.self)
        r.add(DeinterlaceNode.self)
        r.addAdapter(RotateNode.adapter)
        r.add(FlipNode.self)
        r.add(CropNode.self)
        r.add(PadNode.self)
        r.add(ResampleNode.self)
        r.add(VolumeNode.self)
        r.add(AudioFadeNode.self)
        r.addAdapter(ResampleNode.adapter)
        r.add(ShaderFilter.self)
        r.add(StackNode.self)
        r.add(TransitionNode.self)
        r.add(OverlayNode.self)
        r.add(SetParamsNode.self)
        // mixers
        r.add(ConcatNode.self)
        r.add(AmixNode.self)
        // encoders
        r.add(H264EncoderNode.self)
        r.add(HEVCEncoderNode.self)
        r.add(VP8EncoderNode.self)
        r.add(VP9EncoderNode.self)
        r.add(AACEncoderNode.self)
        r.add(OpusEncoderNode.self)
        r.add(MP3EncoderNode.self)
        // containers and elementary streams
        r.add(MP4Sink.self)
        r.add(MatroskaSink.self)
        r.add(H264Sink.self)
        r.add(HEVCSink.self)
        r.add(IVFSink.self)
        r.add(ADTSSink.self)
        r.add(MP3Sink.self)
        r.add(H264Source.self)
        r.add(IVFSource.self)
        r.add(ADTSSource.self)
        // pictures
        r.add(GifSink.self)
        r.add(WebPSink.self)
        // decoders
        r.add(DecodeNode.self)
        r.addAdapter(DecodeNode.adapter)
        // pictures
        r.add(SnapshotSink.self)
        r.add(ImageSequenceSink.self)
        r.add(ImageSequenceSource.self)
        FFmpegNames.register(into: r)
    }

    /// A registry with every built-in node type.
    public static func makeRegistry() -> NodeRegistry {
        let r = NodeRegistry()
        register(into: r)
        return r
    }
}
