/// A chapter of a movie: where it starts and ends (in ticks of its own time base, as
/// libavformat's AVChapter keeps them), its title, and the id its file gave it (0: none).
public struct Chapter: Hashable, Sendable {
    public var id: Int64
    public var start: Int64
    public var end: Int64
    public var timeBase: Rational
    public var title: String?

    public init(id: Int64 = 0, start: Int64, end: Int64, timeBase: Rational, title: String? = nil) {
        self.id = id
        self.start = start
        self.end = end
        self.timeBase = timeBase
        self.title = title
    }

    /// `ticks` of the chapter's time base in units of 1/`scale` s, rounded half away from zero
    /// (av_rescale_q); nil if it does not fit.
    public func rescaled(_ ticks: Int64, to scale: Int64) -> Int64? {
        MediaTime.rescale(ticks, timeBase: timeBase, to: scale)
    }
}
