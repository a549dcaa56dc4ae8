extension ValidatedGraph {
    /// Notes for encoders and sinks that get decoded frames their stream says are interlaced:
    /// encoded or shown as progressive pictures, they comb wherever something moves, and a user
    /// who did not know the source was interlaced should hear it before looking at the result.
    /// A deinterlacer on the way says its output is progressive, which ends the note.
    func interlacedFrameNotes() -> [String] {
        var seen = Set<Int>()
        var notes: [String] = []
        for c in connections {
            guard case .video(let v) = c.format, let order = v.interlacing, order != .progressive, !seen.contains(c.to) else { continue }
            let consumer = nodes[c.to]
            guard consumer.info.category == .encoder || consumer.info.category == .sink else { continue }
            seen.insert(c.to)
            notes.append("'\(consumer.id)' (\(consumer.info.name)) gets interlaced frames (\(order.rawValue)): they show combing wherever something moves; "
                         + "deinterlace them before it (ffmpeg's yadif) unless the output is meant to stay interlaced")
        }
        return notes
    }
}
