/// How `GifAnimationEncoder` makes a GIF.
public struct GifSettings: Sendable {
    /// Where palettes come from.
    public enum Palette: String, CaseIterable, Sendable {
        /// One palette per frame (best colours, slowest, bigger files).
        case frame
        /// One palette for the clip, from the histogram of its first `paletteFrames` frames
        /// (those frames wait in memory until it is made; the rest stream through).
        case clip
    }

    /// How pixels are mapped onto the palette.
    public enum Dither: String, CaseIterable, Sendable {
        /// libimagequant's error diffusion (Floyd–Steinberg).
        case diffusion
        /// Bayer 8x8 ordered dither (stable from frame to frame: smaller animated files).
        case ordered
        /// Nearest colour.
        case none
    }

    public var palette: Palette = .clip
    /// Frames whose colours make the clip palette (memory: this many RGBA frames).
    public var paletteFrames = 8
    public var dither: Dither = .diffusion
    /// 0 ... 1.
    public var ditherStrength = 1.0
    /// Pixels unchanged since the previous frame become transparent (they compress better).
    public var transparency = true
    /// Frames are cut to the rectangle that changed.
    public var crop = true
    /// libimagequant's speed, 1 (best) ... 10 (fastest).
    public var speed = 4
    /// Loop count (0 = forever), or nil for no loop extension (played once).
    public var loop: Int? = 0

    /// Colours per palette: 255, so one index is always free for transparency (the same
    /// palettes with and without it).
    public static let maxColors = 255

    public init() {}
}
