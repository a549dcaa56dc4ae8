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

    /// nil when `degrees` is no turn (0 without `mirrored`, or not a quarter). `mirrored` also
    /// flips the turned picture left to right (`upright` uses it). `turnsWhatIsShown`: the turn
    /// is one the picture should show (`rotate` with given degrees, ffmpeg's `transpose`), so the
    /// display rotation stays the input's; otherwise the turn undoes it (upright frames).
    init?(source: VideoFormat, degrees: Int, mirrored: Bool = false, turnsWhatIsShown: Bool = false, threads: Int) throws {
        guard let kernel = QuarterTurnKernel(degrees: ((degrees % 360) + 360) % 360, mirrored: mirrored) else { return nil }
        self.kernel = kernel
        self.threads = threads
        output = Self.output(source, kernel, turnsWhatIsShown: turnsWhatIsShown)
        if let wide = Self.widened(source, kernel) {
            widen = (try PixelConverter(from: source, to: wide), FramePool.shared(for: wide).makeMemory(), wide)
        } else {
            widen = nil
        }
    }

    /// The format frames of `source` have after a clockwise turn by `degrees` (`source` itself
    /// for no turn). Computable at validation, before any frame.
    static func outputFormat(_ source: VideoFormat, degrees: Int, mirrored: Bool = false) -> VideoFormat {
        QuarterTurnKernel(degrees: ((degrees % 360) + 360) % 360, mirrored: mirrored).map { output(source, $0, turnsWhatIsShown: false) } ?? source
    }

    /// What shows frames of `f` as they are displayed: a clockwise turn of 360 − rotation, as
    /// ffmpeg's autorotate (90 is `transpose=cclock`); where the display matrix also mirrors
    /// (`VideoFormat.mirrored`), a turn of rotation + 180 then a flip left to right, as ffmpeg's
    /// `transpose=clock_flip` for 90, `hflip` alone for 180, `cclock_flip` for 270 and `vflip`
    /// (a half turn mirrored) for 0.
    static func upright(_ f: VideoFormat) -> (degrees: Int, mirrored: Bool) {
        f.mirrored ? ((f.rotation + 180) % 360, true) : ((360 - f.rotation) % 360, false)
    }

    private static func output(_ source: VideoFormat, _ kernel: QuarterTurnKernel, turnsWhatIsShown: Bool) -> VideoFormat {
        var out = widened(source, kernel) ?? source
        (out.width, out.height) = kernel.turnedSize(width: source.width, height: source.height)
        // a turn that undoes the display rotation leaves what is still owed (counterclockwise)
        // after it: nothing, for `upright`'s. A turn the picture should show keeps the input's,
        // so a player turns it as before and the picture shows the turn, as ffmpeg's transpose
        // (rotations commute). A mirror is undone by `upright`'s turn, and kept by one to show.
        if turnsWhatIsShown {
            out.rotation = source.rotation
        } else {
            out.rotation = kernel.mirrored ? 0 : (source.rotation + kernel.degrees) % 360
            out.mirrored = false
        }
        // a quarter turn swaps what a pixel's width and height are
        if kernel.degrees % 180 != 0 && source.sampleAspect.num > 0 && source.sampleAspect.den > 0 {
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
