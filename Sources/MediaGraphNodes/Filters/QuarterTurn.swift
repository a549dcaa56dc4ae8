import MediaGraphCodecs
import MediaGraphCore
import MediaGraphKernels

/// Turning frames of one format clockwise by 90, 180 or 270 degrees (`QuarterTurnKernel`), the
/// one way the `rotate` node and upright pictures (`UprightFrames`) turn: turned a quarter,
/// 4:2:2 would be 4:4:0, which no pixel format holds, so it is widened to 4:4:4 first
/// (libswscale), in memory taken once. Not thread-safe: one thread at a time.
final class QuarterTurn {
    let kernel: QuarterTurnKernel
    /// The frames turned: sides swapped by a quarter turn, the sample aspect ratio inverted
    /// with them, 4:2:2 as 4:4:4, and the display rotation still owed after the turn.
    let output: VideoFormat
    private let threads: Int
    private let widen: (converter: PixelConverter, memory: FrameMemory, format: VideoFormat)?

    /// nil when `degrees` is no turn (0, or not a quarter).
    init?(source: VideoFormat, degrees: Int, threads: Int) throws {
        guard let kernel = QuarterTurnKernel(degrees: ((degrees % 360) + 360) % 360) else { return nil }
        self.kernel = kernel
        self.threads = threads
        output = Self.output(source, kernel)
        if let wide = Self.widened(source, kernel) {
            widen = (try PixelConverter(from: source, to: wide), FramePool.shared(for: wide).makeMemory(), wide)
        } else {
            widen = nil
        }
    }

    /// The format frames of `source` have after a clockwise turn by `degrees` (`source` itself
    /// for no turn). Computable at validation, before any frame.
    static func outputFormat(_ source: VideoFormat, degrees: Int) -> VideoFormat {
        QuarterTurnKernel(degrees: ((degrees % 360) + 360) % 360).map { output(source, $0) } ?? source
    }

    private static func output(_ source: VideoFormat, _ kernel: QuarterTurnKernel) -> VideoFormat {
        var out = widened(source, kernel) ?? source
        (out.width, out.height) = kernel.turnedSize(width: source.width, height: source.height)
        // the display rotation (counterclockwise) still owed after a clockwise turn
        out.rotation = (source.rotation + kernel.degrees) % 360
        // a mirroring matrix is not undone by a turn, and what is left of it after one is not
        // the same mirror: the turned frames carry none (Docs/filters.md)
        out.mirrored = false
        // a quarter turn swaps what a pixel's width and height are
        if kernel.degrees != 180 && source.sampleAspect.num > 0 && source.sampleAspect.den > 0 {
            out.sampleAspect = Rational(source.sampleAspect.den, source.sampleAspect.num)
        }
        return out
    }

    /// The 4:4:4 format `source` is widened to before `kernel`'s turn; nil when it needs none.
    private static func widened(_ source: VideoFormat, _ kernel: QuarterTurnKernel) -> VideoFormat? {
        guard !QuarterTurnKernel.formats(degrees: kernel.degrees).contains(source.pixelFormat) else { return nil }
        var wide = source
        wide.pixelFormat = source.pixelFormat.bitDepth > 8 ? .yuv444p10 : .yuv444p
        return wide
    }

    /// Writes `source` turned into `destination` (of `output`'s format; other memory).
    func run(source: FramePlanes, destination: FramePlanes) throws {
        var input = source
        if let widen {
            input = widen.memory.planes(widen.format)
            try widen.converter.convert(source: source, destination: input)
        }
        try kernel.run(source: input, destination: destination, threads: threads)
    }
}
