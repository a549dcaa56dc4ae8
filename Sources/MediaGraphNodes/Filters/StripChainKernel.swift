import MediaGraphCore
import MediaGraphKernels

/// Several kernels on rgba/bgra frames as one pass: the frame goes through strip by strip (a few
/// rows, small enough to stay in the core's cache), each kernel in turn over the strip, so the
/// frame is read and written once whatever the number of kernels. Each kernel does over a strip
/// exactly what it does over a whole frame, so the bytes are those of the kernels run one after
/// another. Used by the fusion of colour filters where a run holds forms that do not compose into
/// one (a table, a matrix chain, a 3D LUT).
struct StripChainKernel: FrameKernel {
    /// The kernels, first applied first; none is an identity.
    let kernels: [FrameKernel]
    /// Bytes of one strip: rows of a 1080p rgba frame come 4 at a time (31 KB).
    static let stripBytes = 32 * 1024

    init(_ kernels: [FrameKernel]) {
        self.kernels = kernels.filter { !$0.isIdentity }
    }

    var isIdentity: Bool { kernels.isEmpty }

    func run(source: FramePlanes, destination: FramePlanes, threads: Int) throws {
        try FrameCheck.validate(kernel: "stripchain", source: source, destination: destination, accepted: ColorMatrixKernel.formats)
        guard let first = kernels.first else { return }
        let rowsPerStrip = max(1, Self.stripBytes / max(1, source.rowBytes(0)))
        let kernels = self.kernels
        let failure = Lock<Error?>(nil)
        RowBands.run(rows: source.height, threads: threads) { band in
            var y = band.lowerBound
            while y < band.upperBound {
                let rows = min(rowsPerStrip, band.upperBound - y)
                let from = Self.strip(source, y, rows), to = Self.strip(destination, y, rows)
                do {
                    try first.run(source: from, destination: to, threads: 1)
                    for kernel in kernels.dropFirst() { try kernel.run(source: to, destination: to, threads: 1) }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
                y += rows
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Rows y..<y+rows of a one-plane frame.
    static func strip(_ frame: FramePlanes, _ y: Int, _ rows: Int) -> FramePlanes {
        FramePlanes(format: frame.format, width: frame.width, height: rows, data0: frame.data0 + y * frame.stride0, stride0: frame.stride0)
    }
}
