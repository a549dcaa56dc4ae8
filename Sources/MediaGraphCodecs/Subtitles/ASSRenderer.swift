import CASS
import MediaGraphCore

/// An error reading an ASS/SSA script, in words a person can act on.
public struct ASSError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An ASS/SSA script rendered by libass, set up as ffmpeg 5.1's `ass` filter sets it up
/// (vf_subtitles.c): fonts from fontconfig (and `fontsDir`), fonts embedded in the script
/// extracted, the frame and storage size of the video (or storage `originalSize`, with the
/// pixel aspect that keeps its shape), the shaper as asked. Each rendered image is a coverage
/// bitmap with one colour, for the caller to blend. Not shared between threads.
public final class ASSRenderer: @unchecked Sendable {
    /// libass's text shaping: its default (complex when built with HarfBuzz), or a choice.
    public enum Shaping: String, Sendable, CaseIterable { case auto, simple, complex }

    /// One bitmap of a rendered frame: `width` × `height` coverage bytes, rows `stride` apart,
    /// to be drawn with its top left at (`x`, `y`) in `color` (libass's RRGGBBAA, AA transparency).
    public struct Image {
        public let width: Int, height: Int, stride: Int
        public let bitmap: UnsafePointer<UInt8>
        public let color: UInt32
        public let x: Int, y: Int
    }

    /// The glyphs libass keeps rendered (its default is 10000) and the megabytes of bitmaps it
    /// caches (default 128 MiB): bounded lower so a script of many distinct glyphs costs at
    /// most this much cache.
    public static let cachedGlyphs = 2000
    public static let cachedBitmapMegabytes = 64

    /// What libass said while reading and rendering.
    public let messages = ASSMessages()
    private let library: OpaquePointer
    private let renderer: OpaquePointer
    private let track: UnsafeMutablePointer<ASS_Track>

    /// Reads `script` (the whole file) with libass, with the fonts of `fontsDir` beside the
    /// system's; fails when libass finds no script in it.
    public init(script: [UInt8], fontsDir: String?) throws(ASSError) {
        guard let library = ass_library_init() else { throw ASSError("libass could not start") }
        self.library = library
        messages.install(on: library)
        ass_set_fonts_dir(library, fontsDir)
        ass_set_extract_fonts(library, 1)
        guard let renderer = ass_renderer_init(library) else {
            ass_library_done(library)
            throw ASSError("libass could not start its renderer (no FreeType or fontconfig?)")
        }
        self.renderer = renderer
        ass_set_cache_limits(renderer, Int32(Self.cachedGlyphs), Int32(Self.cachedBitmapMegabytes))
        // the default font provider (fontconfig), no default family: libass's own fallback, as ffmpeg
        ass_set_fonts(renderer, nil, nil, Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        var text = script.map { CChar(bitPattern: $0) }
        guard let track = ass_read_memory(library, &text, text.count, nil) else {
            let said = messages.take().map(\.text)
            ass_renderer_done(renderer); ass_library_done(library)
            throw ASSError("libass found no ASS/SSA script in it" + (said.isEmpty ? " (expected a [Script Info] section and [Events] with Dialogue lines)" : ": " + said.joined(separator: "; ")))
        }
        self.track = track
    }

    deinit {
        ass_free_track(track)
        ass_renderer_done(renderer)
        ass_library_done(library)
    }

    /// The events (Dialogue lines) libass read.
    public var eventCount: Int { Int(track.pointee.n_events) }

    /// An event as libass read it: times in milliseconds, its style's index, its text with
    /// the override tags.
    public struct Event: Sendable {
        public var start: Int64, end: Int64
        public var style: Int
        public var text: String
    }

    /// A style's sizes as libass read it: the font size and border in script pixels, the
    /// scales as fractions (1 is 100%).
    public struct Style: Sendable {
        public var fontSize: Double, scaleX: Double, scaleY: Double, outline: Double
    }

    public var events: [Event] {
        (0..<eventCount).map { k in
            let e = track.pointee.events[k]
            return Event(start: Int64(e.Start), end: Int64(e.Start) &+ Int64(e.Duration), style: Int(e.Style),
                         text: e.Text.map { String(cString: $0) } ?? "")
        }
    }

    public var styles: [Style] {
        (0..<Int(track.pointee.n_styles)).map { k in
            let s = track.pointee.styles[k]
            return Style(fontSize: s.FontSize, scaleX: s.ScaleX, scaleY: s.ScaleY, outline: s.Outline)
        }
    }

    /// The script's PlayResX and PlayResY (libass fills in its defaults for missing ones).
    public var playResolution: (x: Int, y: Int) { (Int(track.pointee.PlayResX), Int(track.pointee.PlayResY)) }

    /// Sets up rendering into `width` × `height` frames, as ffmpeg's filter does when its input
    /// is configured; `originalSize` is the size the script was written for (ffmpeg's original_size).
    public func configure(width: Int, height: Int, originalSize: (width: Int, height: Int)?, shaping: Shaping) {
        ass_set_frame_size(renderer, Int32(width), Int32(height))
        if let o = originalSize {
            ass_set_pixel_aspect(renderer, Double(width) / Double(height) / (Double(o.width) / Double(o.height)))
            ass_set_storage_size(renderer, Int32(o.width), Int32(o.height))
        } else {
            ass_set_storage_size(renderer, Int32(width), Int32(height))
        }
        switch shaping {
        case .auto: break
        case .simple: ass_set_shaper(renderer, ASS_SHAPING_SIMPLE)
        case .complex: ass_set_shaper(renderer, ASS_SHAPING_COMPLEX)
        }
    }

    /// Renders the script at `milliseconds` and hands each image to `body`, bottom first (the
    /// order to blend them in). The images live until the next render.
    public func render(milliseconds: Int64, _ body: (Image) -> Void) {
        var changed: Int32 = 0
        var image = ass_render_frame(renderer, track, milliseconds, &changed)
        while let i = image {
            let p = i.pointee
            if p.w > 0, p.h > 0, let bitmap = p.bitmap {
                body(Image(width: Int(p.w), height: Int(p.h), stride: Int(p.stride), bitmap: UnsafePointer(bitmap),
                           color: p.color, x: Int(p.dst_x), y: Int(p.dst_y)))
            }
            image = p.next
        }
    }
}
