import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs `PlaneChroma` on 8-bit planar Y'CbCr frames: Y' through its table (left alone in place,
/// or copied, where the table keeps it), each (Cb, Cr) sample pair through the 2x2 map — on AVX2
/// CPUs 16 pairs a step in registers (`planeChromaRowAVX2`), on other x86-64 CPUs 8 in SSE2
/// (`planeChromaRowSSE2`), elsewhere and for a row's last pairs one by one in the same
/// arithmetic, so every CPU writes the same bytes.
public struct PlaneChromaKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = PlaneCurvesKernel.formats

    public let chroma: PlaneChroma
    private let keepsLuma: Bool
    private let avx2: Bool
    /// Whether the map changes nothing (checked once here, not per frame).
    public var isIdentity: Bool { chroma.isIdentity }

    public init(_ chroma: PlaneChroma, vectorPath: VectorPath = .detected) {
        self.chroma = chroma
        keepsLuma = chroma.keepsLuma
        avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
    }

    /// Applies the map from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "planechroma", source: source, destination: destination, accepted: Self.formats)
        let keepsLuma = self.keepsLuma, avx2 = self.avx2, chroma = self.chroma, constants = chroma.constants
        chroma.y.withUnsafeBufferPointer { lumaTable in
        chroma.m.withUnsafeBufferPointer { m in
        chroma.addends.withUnsafeBufferPointer { addends in
            _ = RowBands.run(rows: source.height, threads: threads) { band in
                let ys = source.data(0), yd = destination.data(0), width = source.rowBytes(0)
                if !(keepsLuma && ys == yd) {
                    for y in band {
                        let rowIn = ys + y * source.stride(0), rowOut = yd + y * destination.stride(0)
                        if keepsLuma {
                            rowOut.update(from: rowIn, count: width)
                        } else {
                            for x in 0..<width { rowOut[x] = lumaTable[Int(rowIn[x])] }
                        }
                    }
                }
                let samples = source.rowBytes(1)
                for y in RowBands.planeRows(band, plane: 1, of: source) {
                    let cbIn = source.data(1) + y * source.stride(1), crIn = source.data(2) + y * source.stride(2)
                    let cbOut = destination.data(1) + y * destination.stride(1), crOut = destination.data(2) + y * destination.stride(2)
                    var x = 0
                    #if arch(x86_64)
                    x = avx2
                        ? planeChromaRowAVX2(cbIn, crIn, cbOut, crOut, samples, m: m.baseAddress!, addends: addends.baseAddress!,
                                             low: chroma.low, high: chroma.high)
                        : planeChromaRowSSE2(cbIn, crIn, cbOut, crOut, samples, m: m.baseAddress!, addends: addends.baseAddress!,
                                             low: chroma.low, high: chroma.high)
                    #endif
                    for i in x..<samples {
                        let out = constants.output(cb: cbIn[i], cr: crIn[i])
                        cbOut[i] = out.cb
                        crOut[i] = out.cr
                    }
                }
            }
        }
        }
        }
    }
}
