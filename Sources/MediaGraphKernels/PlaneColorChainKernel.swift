import MediaGraphCore
import MediaGraphKernelsAVX2

/// Runs `PlaneColorChain` on 8-bit planar Y'CbCr frames, bands of chroma rows across cores: on
/// AVX2+FMA CPUs 8 chroma samples a step in C (`planeColorChainAVX2`), elsewhere and for a row's
/// last samples one by one in the same arithmetic.
public struct PlaneColorChainKernel: Sendable {
    /// Pixel formats the kernel accepts.
    public static let formats: [PixelFormat] = PlaneCurvesKernel.formats

    public let chain: PlaneColorChain
    private let avx2: Bool
    /// Whether every map changes nothing (checked once here, not per frame).
    public var isIdentity: Bool { chain.isIdentity }

    public init(_ chain: PlaneColorChain, vectorPath: VectorPath = .detected) {
        self.chain = chain
        avx2 = vectorPath == .avx2 && CPUFeatures.hasAVX2FMA
    }

    /// Applies the maps from `source` into `destination` (same format and size; may be the same
    /// memory) on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        try FrameCheck.validate(kernel: "planecolorchain", source: source, destination: destination, accepted: Self.formats)
        let shift = source.format.chromaShift, width = source.width, height = source.height
        let chroma = source.planeSize(1)
        let avx2 = self.avx2, mapCount = chain.mapCount
        chain.decode.withUnsafeBufferPointer { decode in
        chain.maps.withUnsafeBufferPointer { maps in
        chain.encode.withUnsafeBufferPointer { encode in
            let d = decode.baseAddress!, e = encode.baseAddress!
            // An empty map list still needs a valid pointer.
            let m = maps.baseAddress ?? d
            RowBands.run(rows: chroma.height, threads: threads, minRows: 4) { band in
                for c in band {
                    let firstRow = c << shift.y, rowCount = min(height - firstRow, 1 << shift.y)
                    let y0In = UnsafePointer(source.data(0) + firstRow * source.stride(0))
                    let y0Out = destination.data(0) + firstRow * destination.stride(0)
                    let y1In = rowCount > 1 ? UnsafePointer(source.data(0) + (firstRow + 1) * source.stride(0)) : nil
                    let y1Out = rowCount > 1 ? destination.data(0) + (firstRow + 1) * destination.stride(0) : nil
                    let cbIn = UnsafePointer(source.data(1) + c * source.stride(1)), crIn = UnsafePointer(source.data(2) + c * source.stride(2))
                    let cbOut = destination.data(1) + c * destination.stride(1), crOut = destination.data(2) + c * destination.stride(2)
                    // Samples whose every column exists: the vector loop's; a last half-covered one is the tail's.
                    let whole = width >> shift.x
                    var x = 0
                    #if arch(x86_64)
                    if avx2 {
                        let scale = 1 / Float(rowCount << shift.x)
                        x = planeColorChainAVX2(y0In, y1In, y0Out, y1Out, cbIn, crIn, cbOut, crOut, samples: whole, pairs: shift.x > 0,
                                                decode: d, maps: m, mapCount: mapCount, encode: e, scale: scale)
                    }
                    #endif
                    for s in x..<chroma.width {
                        let firstColumn = s << shift.x, columns = min(width - firstColumn, 1 << shift.x)
                        let terms = PlaneColorChain.decodeTerms(cb: cbIn[s], cr: crIn[s], decode: d)
                        var total = SIMD3<Float>.zero
                        for k in 0..<rowCount {
                            let rowIn = k == 0 ? y0In : y1In!, rowOut = k == 0 ? y0Out : y1Out!
                            var pair = SIMD3<Float>.zero
                            for i in 0..<columns {
                                let p = PlaneColorChain.pixel(y: rowIn[firstColumn + i], terms: terms, decode: d, maps: m,
                                                              mapCount: mapCount, encode: e)
                                rowOut[firstColumn + i] = PlaneColorChain.byte(p.y)
                                // the pair's sum as hadd forms it: the first pixel's value, plus the second's
                                pair = i == 0 ? p.rgb : pair + p.rgb
                            }
                            total = k == 0 ? pair : total + pair
                        }
                        let scale = 1 / Float(rowCount * columns)
                        cbOut[s] = PlaneColorChain.byte(PlaneColorChain.chroma(total, e + 4, scale: scale))
                        crOut[s] = PlaneColorChain.byte(PlaneColorChain.chroma(total, e + 8, scale: scale))
                    }
                }
            }
        }
        }
        }
    }
}
