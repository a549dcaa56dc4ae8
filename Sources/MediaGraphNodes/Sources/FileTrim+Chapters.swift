import MediaGraphCodecs
import MediaGraphCore

extension FileTrim {
    /// A file's chapters on the time line its streams get (zero at `zeroMicros`: the file's start
    /// time plus `start`), as ffmpeg's copy_chapters moves them for an input's `-ss`: a chapter
    /// that ends before zero is left out, the others move back by zero and start at 0 at the
    /// earliest. As for an input's `-t`, `end`/`duration` cut none of them.
    func chapters(_ chapters: [Chapter], zeroMicros: Int64) -> [Chapter] {
        chapters.compactMap { c in
            let offset = Demuxer.rescale(zeroMicros, from: Rational(1, 1_000_000), to: c.timeBase)
            guard c.end >= offset else { return nil }
            var moved = c
            moved.start = max(0, c.start - offset)
            moved.end = c.end - offset
            return moved
        }
    }
}
