import MediaGraphCodecs
import MediaGraphCore

/// Makes N representative pictures of a video file: the duration is cut into N equal parts and
/// the middle of each is visited by a seek (to the key frame at or before it), so the cost
/// grows with N and the length of one GOP, not with the file's duration. At each point the key
/// frame is decoded and checked (`ThumbnailFrameCheck`: not near-black, not near-uniform); if it
/// fails, the following frames of that GOP are decoded until one passes, at most
/// `maxFramesPerPoint`; if none does, the one with the most detail is taken. A frame is never
/// taken twice (`ThumbnailPoint`): on a short file two points can share a key frame, and the
/// later one then decodes on to its own part of the file (one GOP at most).
///
/// Pictures are upright (`UprightFrames`): a stream with a display rotation gives pictures with
/// the display's width and height, as players show it and ffmpeg writes it.
public enum ThumbnailMaker {
    /// Frames decoded at most at one point when its key frame is rejected.
    public static let maxFramesPerPoint = 120

    /// Writes the pictures (and the sheet) and reports them. Throws when the file cannot be read
    /// as video, a picture cannot be written, or not one picture could be made (the error says
    /// why: no decodable frame, or a file cut short).
    public static func make(file: String, options: ThumbnailOptions, stop: StopFlag = StopFlag()) throws -> ThumbnailReport {
        // the options' own problems first: nothing is opened for options that cannot work
        let checked = try options.checked()
        let pattern = checked.pattern
        let demuxer = try Demuxer(path: file, stop: stop)
        guard let info = demuxer.streams.first(where: { $0.kind == .video && !$0.isAttachedPicture }) else {
            throw NodeFailure("thumbnails: '\(file)' has no video stream")
        }
        guard let duration = demuxer.container.duration ?? info.duration.map({ Int64(Double($0) * info.timeBase.doubleValue * 1e6) }), duration > 0 else {
            throw NodeFailure("thumbnails: '\(file)' does not say how long it is, so points cannot be spread over it (a raw H.264 or HEVC stream carries no duration: put it in an MP4 first, e.g. `mediagraph run Graphs/remux-h264.json --set in.path=… --set mux.path=clip.mp4`, or take pictures while it plays with the `snapshot` node, Docs/pictures.md)")
        }
        demuxer.select([info.index])
        let start = demuxer.container.startTime ?? 0
        let source = info.videoFormat
        let upright = try UprightFrames(source: source, threads: 0)
        // sizes, the encoder and the sheet are the display's: the frames reach them turned
        let shown = upright.upright
        let size = thumbnailSize(shown, width: options.width)
        let encoder = try checked.format.map {
            try StillImageEncoder(settings: StillImageSettings(format: $0, quality: options.quality, width: size.width, height: size.height),
                                  source: shown)
        }
        var sheet = try options.sheetPath.map {
            try ThumbnailSheet(path: $0, count: options.count, columns: options.columns, tile: size, source: shown, quality: options.quality)
        }
        let encoded = EncodedVideoFormat(codec: info.codec, raw: source, timeBase: info.timeBase, extradata: info.extradata,
                                         storedLayout: info.nativePixelFormat, codedBitsPerSample: info.codedBitsPerSample)
        var report = ThumbnailReport()
        var lastPTS = Int64.min
        var lastMicroseconds: Int64?
        var firstProblem: String?
        for i in 0..<options.count {
            if stop.isSet { throw NodeFailure("thumbnails: stopped") }
            let partStart = start + Int64((Double(duration) * Double(i) / Double(options.count)).rounded())
            let target = start + Int64((Double(duration) * (Double(i) + 0.5) / Double(options.count)).rounded())
            // a key frame at or before the target also where the format has no index (MPEG-TS)
            let readAhead: [DemuxedPacket]
            do {
                readAhead = try demuxer.seek(toMicroseconds: target, keyFrameAtOrBefore: target, video: info)
            } catch {
                // a seek past where a cut file's data stops can fail: the other points may still give pictures
                firstProblem = firstProblem ?? "\(error)"
                continue
            }
            let decoder = try VideoDecoder(input: encoded, threads: 1)
            var point = ThumbnailPoint(partStart: partStart, after: lastPTS, range: source.range)
            let decoding = try decode(&point, readAhead: readAhead, demuxer: demuxer, decoder: decoder)
            report.framesDecoded += decoding.framesDecoded
            firstProblem = firstProblem ?? decoding.firstProblem
            report.framesRejected += point.rejected
            // past the last frame: nothing new
            guard let taken = point.result(near: Double(target - start) / 1e6), let planes = taken.frame.planes else { continue }
            let frame = taken.frame
            lastPTS = frame.pts
            lastMicroseconds = Int64((Double(frame.pts) * frame.timeBase.doubleValue * 1e6).rounded())
            let seconds = Double(frame.pts) * frame.timeBase.doubleValue - Double(start) / 1e6
            let picture = try upright.upright(planes)
            var path: String?
            if let pattern, let encoder {
                let name = pattern.name(number: options.startNumber + report.thumbnails.count, seconds: seconds)
                try write(encoder, picture, to: name)
                path = name
            }
            try sheet?.add(picture, seconds: seconds)
            report.thumbnails.append(Thumbnail(path: path, seconds: seconds, fallback: taken.fallback))
        }
        if report.thumbnails.count < options.count {
            let shortfall = ThumbnailShortfall.measure(demuxer, video: info, from: lastMicroseconds ?? start, fileStart: start,
                                                       declaredMicroseconds: duration, found: report.thumbnails.count)
            if report.thumbnails.isEmpty {
                let problem = firstProblem.map { " (the first failure: \($0))" } ?? ""
                throw NodeFailure("thumbnails: '\(file)': no picture could be made: \(shortfall)\(problem)")
            }
            report.shortfall = shortfall
        }
        try sheet?.write()
        return report
    }

    /// The thumbnail's size: `width` wide (even), as high as the display aspect ratio says (`f`
    /// is the upright format, so a rotated stream's display width is the one scaled).
    static func thumbnailSize(_ f: VideoFormat, width: Int?) -> (width: Int, height: Int) {
        guard let width else { return (f.width, f.height) }
        let sar = f.sampleAspect.num > 0 && f.sampleAspect.den > 0 ? f.sampleAspect.doubleValue : 1
        let displayWidth = Double(f.width) * sar
        let h = Double(width) * Double(f.height) / Swift.max(1, displayWidth)
        return (Swift.max(2, width & ~1), Swift.max(2, Int(h.rounded()) & ~1))
    }

    static func write(_ encoder: StillImageEncoder, _ planes: FramePlanes, to path: String) throws {
        let file = try OutputFile(path: path)
        do {
            try encoder.encode(planes) { bytes in
                if let base = bytes.baseAddress { try file.write(base, count: bytes.count) }
            }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }
}
