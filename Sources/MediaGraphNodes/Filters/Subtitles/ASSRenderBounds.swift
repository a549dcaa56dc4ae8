import Foundation
import MediaGraphCodecs

/// Bounds on how much a script may ask libass to draw, checked before the first frame. libass
/// has no limits of its own on the size of what it rasterizes: `{\fscx100000\bord50}` took
/// ffmpeg 110 s and 3.7 GB for one frame, a 30000-unit `\p1` square with `\bord300` 100 s and
/// 9.4 GB, 20000 events on at once 4.7 s a frame (its collision layout is quadratic). A script is attacker-controlled, so the node refuses, naming the event,
/// a script whose glyphs or drawings would be larger than `maxGlyphSide` pixels, or whose events on at one
/// time would be more than `maxSimultaneousEvents` or cover more than `maxCoverage` glyph pixels.
/// The estimates are upper bounds from the script's numbers (font sizes, scales, borders; a
/// relative \fs+ multiplies), far above what real subtitles and typesetting use.
enum ASSRenderBounds {
    /// The largest em plus twice the border of a glyph, in frame pixels (a 4096² bitmap is
    /// 16 MiB; a 1080p frame's subtitles are some tens of pixels).
    static let maxGlyphSide = 4096.0
    /// The most events on at one time.
    static let maxSimultaneousEvents = 4096
    /// The most glyph pixels (characters × side²) of the events on at one time: 256 Mpx.
    static let maxCoverage = 256.0 * 1024 * 1024

    /// Throws a message naming the first event over a bound. `scale` is frame pixels per script
    /// pixel (the larger of width and height over PlayResX, PlayResY), `aspect` the pixel aspect
    /// libass stretches by (1 without an original size).
    static func check(_ script: ASSRenderer, scale: Double, aspect: Double) throws(ASSError) {
        let styles = script.styles
        let largest = Sizes(fontSize: styles.map(\.fontSize).max() ?? 0, scale: styles.map { max($0.scaleX, $0.scaleY) }.max() ?? 1,
                            border: styles.map(\.outline).max() ?? 0)
        let stretch = scale * max(aspect, 1 / aspect)
        var changes: [(time: Int64, count: Int, coverage: Double, event: Int)] = []
        let events = script.events
        for (k, e) in events.enumerated() where e.end > e.start {
            let style = styles.indices.contains(e.style) ? styles[e.style] : nil
            let base = style.map { Sizes(fontSize: $0.fontSize, scale: max($0.scaleX, $0.scaleY), border: $0.outline) } ?? largest
            let sizes = Sizes(tagsOf: e.text, from: base, reset: largest)
            let edge = 2 * sizes.border * sizes.scale * max(stretch, 1)
            let side = sizes.fontSize * sizes.scale * stretch + edge
            let drawing = sizes.drawing > 0 ? sizes.drawing * sizes.scale * stretch + edge : 0
            for (size, what) in [(side, "glyphs"), (drawing, "drawing")] where !(size.isFinite && size <= maxGlyphSide) {
                throw ASSError("\(describe(e)): its \(what) would be about \(size.isFinite ? String(Int(size)) : "infinitely many") pixels across (\(what == "glyphs" ? "font size" : "coordinates") × scale + border, in frame pixels); the most this node renders is \(Int(maxGlyphSide))")
            }
            let coverage = Double(max(1, e.text.unicodeScalars.count)) * side * side + drawing * drawing
            changes.append((e.start, 1, coverage, k))
            changes.append((e.end, -1, -coverage, k))
        }
        // ends before starts at the same time: an event ending at t is off at t
        changes.sort { ($0.time, $0.count) < ($1.time, $1.count) }
        var on = 0, coverage = 0.0
        for c in changes {
            on += c.count
            coverage += c.coverage
            guard c.count > 0 else { continue }
            if on > maxSimultaneousEvents {
                throw ASSError("\(on) events are on at once from \(clock(c.time)) (\(describe(events[c.event]))); the most this node renders is \(maxSimultaneousEvents)")
            }
            if coverage > maxCoverage {
                throw ASSError("the events on at \(clock(c.time)) would draw about \(Int(coverage / 1_048_576)) million glyph pixels (characters × glyph size²); the most this node renders at once is \(Int(maxCoverage / 1_048_576)) million")
            }
        }
    }

    /// The sizes an event may reach: font size and border in script pixels, scale as a fraction,
    /// and the extent of its drawings in script pixels.
    struct Sizes {
        var fontSize: Double, scale: Double, border: Double
        var drawing = 0.0

        init(fontSize: Double, scale: Double, border: Double) {
            (self.fontSize, self.scale, self.border) = (fontSize, scale, border)
        }

        /// `base` raised by the override tags in `text`: the largest \fs, \fscx, \fscy, \bord,
        /// \xbord, \ybord; each relative \fs+n multiplies by 1 + n/10 (libass's meaning); a \r
        /// (to any style) brings in the largest of all styles. Text drawn in drawing mode
        /// (\p1 and up) gives the span of its coordinates, divided by 2^(level−1) as libass does.
        init(tagsOf text: String, from base: Sizes, reset: Sizes) {
            self = base
            var growth = 1.0
            var level = 0.0, low = Double.infinity, high = -Double.infinity
            let bytes = Array(text.utf8)
            var i = 0, inTags = false
            func number() -> (text: String, value: Double) {
                let start = i
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                while i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) || bytes[i] == UInt8(ascii: ".") { i += 1 }
                let t = String(decoding: bytes[start..<i], as: UTF8.self)
                return (t, Double(t) ?? 0)
            }
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "{") { inTags = true; i += 1; continue }
                if b == UInt8(ascii: "}") { inTags = false; i += 1; continue }
                if !inTags {
                    // drawing commands: the numbers are coordinates
                    if level > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") {
                        let v = number().value / pow(2, level - 1)
                        low = min(low, v); high = max(high, v)
                    } else { i += 1 }
                    continue
                }
                guard b == UInt8(ascii: "\\") else { i += 1; continue }
                i += 1
                let nameStart = i
                while i < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[i]) { i += 1 }
                let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
                let (written, signed) = number()
                let value = abs(signed)
                switch name {
                case "fs" where written.hasPrefix("+") || written.hasPrefix("-"): growth *= 1 + value / 10
                case "fs": fontSize = max(fontSize, value)
                case "fscx", "fscy": scale = max(scale, value / 100)
                case "bord", "xbord", "ybord": border = max(border, value)
                case "p": level = min(max(0, signed.rounded(.towardZero)), 64)
                case "r":
                    fontSize = max(fontSize, reset.fontSize); scale = max(scale, reset.scale); border = max(border, reset.border)
                default: break
                }
            }
            fontSize *= growth
            if high >= low { drawing = high - low }
        }
    }

    /// "the event at 0:00:01.00–0:00:05.00 ('{\fs10000}Huge…')".
    static func describe(_ e: ASSRenderer.Event) -> String {
        let text = e.text.count > 40 ? e.text.prefix(40) + "…" : Substring(e.text)
        return "the event at \(clock(e.start))–\(clock(e.end)) ('\(text)')"
    }

    /// Milliseconds as ASS writes times: h:mm:ss.cc.
    static func clock(_ ms: Int64) -> String {
        let cs = ms / 10
        let (h, m, s, c) = (cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(h):\(two(m)):\(two(s)).\(two(c))"
    }
}
