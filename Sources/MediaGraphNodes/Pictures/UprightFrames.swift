import MediaGraphCore

/// Turns the frames of a stream with a display rotation (`VideoFormat.rotation`, from the
/// container's display matrix or `rotate` tag) upright, for pictures people look at: thumbnails,
/// contact sheet tiles and `snapshot` files come out as a player shows the video and as ffmpeg's
/// autorotation writes them (240x320 for a 320x240 stream rotated 90°). A stream without
/// rotation passes through untouched and costs nothing.
///
/// Which way: `VideoFormat.rotation` is libavutil's counterclockwise `av_display_rotation_get`
/// angle, so a rotation of R is undone by a clockwise turn of 360 − R, as the `rotate` node's
/// `auto` does (ffmpeg's autorotate: 90 is `transpose=cclock`).
///
/// The turn is `QuarterTurn`'s (the `rotate` node's), on the decoded planes before any
/// scaling (as ffmpeg turns before its scaler); 4:2:2 frames go to 4:4:4 first because a quarter
/// turn of them has no pixel format of ours. Only the frames that become pictures are turned:
/// the graph's `rotate` adapter in front of the sink would turn every frame of the branch, where
/// a snapshot takes a few. The memory for the turned frame (and the 4:4:4 one) is taken once, at
/// creation, so a frame allocates nothing. The returned planes are valid until the next call. A
/// display matrix that mirrors is undone too, as ffmpeg 5.1's autorotate does
/// (`QuarterTurn.upright`). Not thread-safe: one thread at a time.
final class UprightFrames {
    /// The frames handed in: coded orientation, `rotation` set.
    let source: VideoFormat
    /// The frames handed out: display width and height, no rotation.
    let upright: VideoFormat
    private let turn: QuarterTurn?
    private let turned: FrameMemory?

    /// `threads`: what the kernel may use: 1 on `snapshot`'s writer, so a side branch never
    /// competes with the recording for cores; 0 (all) for `thumbnails`, which waits for each picture.
    init(source: VideoFormat, threads: Int) throws {
        self.source = source
        let way = QuarterTurn.upright(source)
        turn = try QuarterTurn(source: source, degrees: way.degrees, mirrored: way.mirrored, threads: threads)
        upright = turn?.output ?? source
        turned = turn.map { FramePool.shared(for: $0.output).makeMemory() }
    }

    /// `f` as it is shown: sides swapped and the sample aspect ratio inverted by a quarter turn
    /// (a pixel twice as wide as high stands on end), rotation 0; 4:2:2 becomes 4:4:4 when turned
    /// a quarter. Computable at validation, before any frame.
    static func uprightFormat(_ f: VideoFormat) -> VideoFormat {
        let way = QuarterTurn.upright(f)
        return QuarterTurn.outputFormat(f, degrees: way.degrees, mirrored: way.mirrored)
    }

    /// The frame upright (the same planes when the stream has no rotation).
    func upright(_ planes: FramePlanes) throws -> FramePlanes {
        guard let turn, let turned else { return planes }
        let output = turned.planes(upright)
        do {
            try turn.run(source: planes, destination: output)
        } catch {
            throw NodeFailure("cannot turn a \(source.width)x\(source.height) \(source.pixelFormat) frame upright (rotated \(source.rotation)°): \(error)")
        }
        return output
    }
}
