import MediaGraphCore

extension YCbCrMatrix {
    /// (Kr, Kg, Kb): the weights of R', G', B' in Y'. An untagged matrix computes as BT.601, what
    /// libswscale and ffmpeg assume (as do rgb and ycgco, which a YUV frame never carries here).
    public var lumaWeights: SIMD3<Double> {
        let (kr, kb): (Double, Double)
        switch self {
        case .bt709: (kr, kb) = (0.2126, 0.0722)
        case .bt2020nc, .bt2020c: (kr, kb) = (0.2627, 0.0593)
        case .smpte240m: (kr, kb) = (0.212, 0.087)
        case .fcc: (kr, kb) = (0.30, 0.11)
        default: (kr, kb) = (0.299, 0.114)
        }
        return SIMD3(kr, 1 - kr - kb, kb)
    }
}
