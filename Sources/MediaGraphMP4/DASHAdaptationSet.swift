import MediaGraphCore

/// One AdaptationSet of an MPD: the representations a player may switch between. Every video
/// representation is in one set (a bit-rate ladder, what ffmpeg writes with `-adaptation_sets
/// "id=0,streams=v id=1,streams=a"`); audio representations are in one set per language, so a
/// player switches bit rates within a language and offers the languages as a choice.
public struct DASHAdaptationSet: Sendable, Equatable {
    /// `AdaptationSet@id`: 0, 1, … in the order of each set's first representation.
    public var id: Int
    public var representations: [DASHManifest.Representation]

    public init(id: Int, representations: [DASHManifest.Representation]) {
        self.id = id
        self.representations = representations
    }

    /// The sets of `representations`, in the order of each set's first representation: all
    /// video in one, audio by language (an unknown language is a language of its own).
    public static func grouping(_ representations: [DASHManifest.Representation]) -> [DASHAdaptationSet] {
        var sets: [DASHAdaptationSet] = []
        for r in representations {
            if let k = sets.firstIndex(where: { $0.takes(r) }) {
                sets[k].representations.append(r)
            } else {
                sets.append(DASHAdaptationSet(id: sets.count, representations: [r]))
            }
        }
        return sets
    }

    func takes(_ r: DASHManifest.Representation) -> Bool {
        guard let first = representations.first, first.isVideo == r.isVideo else { return false }
        return r.isVideo || first.language == r.language
    }

    var isVideo: Bool { representations.first?.isVideo ?? false }

    /// `startWithSAP="1"`: every segment of every representation starts with a key frame (closed
    /// GOPs assumed, as ffmpeg does).
    public var startsWithKeyFrames: Bool {
        representations.allSatisfy { $0.segments.allSatisfy(\.startsWithKeyFrame) }
    }

    /// `segmentAlignment="true"`: segment k starts at the same time in every representation
    /// (compared in seconds, exactly, across timescales), for every k listed in all of them,
    /// and — once `complete` — all list the same number of segments. Then a player switching
    /// at a segment boundary neither skips nor repeats media. ffmpeg writes true always;
    /// each video representation is cut at its own key frames, which need not fall together.
    public func segmentsAligned(complete: Bool) -> Bool {
        guard let first = representations.first else { return true }
        for r in representations.dropFirst() {
            if complete && r.segments.count != first.segments.count { return false }
            for (a, b) in zip(first.segments, r.segments) where !Self.sameTime(a.time, first.timescale, b.time, r.timescale) {
                return false
            }
        }
        return true
    }

    /// a / sa seconds == b / sb seconds, exactly.
    static func sameTime(_ a: Int64, _ sa: Int64, _ b: Int64, _ sb: Int64) -> Bool {
        let l = a.multipliedFullWidth(by: sb), r = b.multipliedFullWidth(by: sa)
        return l.high == r.high && l.low == r.low
    }

    /// Frame rates of the video representations (nil where unknown).
    var frameRates: [Rational?] {
        representations.map { if case .video(_, _, let f, _, _) = $0.media, let f, f.num > 0, f.den > 0 { f } else { nil } }
    }

    /// ffmpeg's choice: `frameRate` on the set when every representation has the same known
    /// rate; `maxFrameRate` on the set and `frameRate` on each representation when they differ;
    /// nothing on the set when one is unknown.
    var frameRateAttributes: (set: String, perRepresentation: Bool) {
        let rates = frameRates
        let known = rates.compactMap { $0 }
        guard let first = known.first else { return ("", false) }
        let differ = known.contains { $0 != first }
        let maximum = known.max { $0.doubleValue < $1.doubleValue } ?? first
        if rates.contains(where: { $0 == nil }) { return ("", differ) }
        return differ ? (" maxFrameRate=\"\(maximum.num)/\(maximum.den)\"", true) : (" frameRate=\"\(first.num)/\(first.den)\"", false)
    }

    /// The opening tag's attributes and the Representations, as ffmpeg lays them out. `complete`:
    /// the MPD lists every segment (a static one), which the alignment is checked over.
    func text(complete: Bool) -> String {
        let sap = startsWithKeyFrames ? " startWithSAP=\"1\"" : ""
        let aligned = segmentsAligned(complete: complete) ? " segmentAlignment=\"true\"" : ""
        // Each representation has its own init segment (its own parameter sets); the segments
        // of one cannot be decoded behind another's, so several make no bitstream switching
        // set (ffmpeg writes true always; the default, false, is what is so).
        let switching = representations.count == 1 ? " bitstreamSwitching=\"true\"" : ""
        var x = "\t\t<AdaptationSet id=\"\(id)\" contentType=\"\(isVideo ? "video" : "audio")\"\(sap)\(aligned)\(switching)"
        let languages = Set(representations.map(\.language))
        let lang = languages.count == 1 ? representations[0].language.map { " lang=\"\(DASHManifest.escaped($0))\"" } ?? "" : ""
        let rates = frameRateAttributes
        if isVideo {
            x += rates.set
            var width = 0, height = 0
            for r in representations {
                if case .video(let w, let h, _, _, _) = r.media { width = max(width, w); height = max(height, h) }
            }
            let par = representations.first.map(Self.pictureAspect) ?? Rational(1, 1)
            x += " maxWidth=\"\(width)\" maxHeight=\"\(height)\" par=\"\(par.num):\(par.den)\""
        }
        x += lang + ">\n"
        for r in representations { x += Self.representation(r, frameRate: rates.perRepresentation) }
        x += "\t\t</AdaptationSet>\n"
        return x
    }

    /// The sample aspect ratio written (1:1 when unknown).
    static func sampleAspect(_ sar: Rational) -> Rational { sar.num > 0 && sar.den > 0 ? sar : Rational(1, 1) }

    /// Width × SAR : height, reduced: one value for the whole set (`DASHWriter` refuses video
    /// representations whose pictures have different shapes, as ffmpeg does).
    static func pictureAspect(_ r: DASHManifest.Representation) -> Rational {
        guard case .video(let width, let height, _, let sar, _) = r.media else { return Rational(1, 1) }
        return pictureAspect(width: width, height: height, sampleAspect: sar)
    }

    /// `AdaptationSet@par` of a picture: width × SAR : height, reduced (SAR 1:1 when unknown).
    public static func pictureAspect(width: Int, height: Int, sampleAspect sar: Rational) -> Rational {
        guard width > 0, height > 0 else { return Rational(1, 1) }
        let aspect = sampleAspect(sar)
        return Rational(Int64(width) * aspect.num, Int64(height) * aspect.den)
    }

    static func representation(_ r: DASHManifest.Representation, frameRate: Bool) -> String {
        let bandwidth = r.bandwidth.map { " bandwidth=\"\($0)\"" } ?? ""
        let codecs = DASHManifest.escaped(r.codecs)
        var x: String
        switch r.media {
        case .video(let width, let height, let rate, let sar, let interlaced):
            x = "\t\t\t<Representation id=\"\(r.id)\" mimeType=\"video/mp4\" codecs=\"\(codecs)\"\(bandwidth) width=\"\(width)\" height=\"\(height)\""
            if interlaced { x += " scanType=\"interlaced\"" }
            let aspect = sampleAspect(sar)
            x += " sar=\"\(aspect.num):\(aspect.den)\""
            if frameRate, let f = rate, f.num > 0, f.den > 0 { x += " frameRate=\"\(f.num)/\(f.den)\"" }
            x += ">\n"
        case .audio(let rate, let channels):
            x = "\t\t\t<Representation id=\"\(r.id)\" mimeType=\"audio/mp4\" codecs=\"\(codecs)\"\(bandwidth) audioSamplingRate=\"\(rate)\">\n"
            x += "\t\t\t\t<AudioChannelConfiguration schemeIdUri=\"urn:mpeg:dash:23003:3:audio_channel_configuration:2011\" value=\"\(channels)\" />\n"
        }
        x += "\t\t\t\t<SegmentTemplate timescale=\"\(r.timescale)\" initialization=\"\(DASHManifest.escaped(r.initialization.template))\" media=\"\(DASHManifest.escaped(r.segmentName.template))\" startNumber=\"\(r.startNumber)\">\n"
        x += "\t\t\t\t\t<SegmentTimeline>\n"
        x += DASHManifest.timeline(r.segments)
        x += "\t\t\t\t\t</SegmentTimeline>\n"
        x += "\t\t\t\t</SegmentTemplate>\n"
        x += "\t\t\t</Representation>\n"
        return x
    }
}
