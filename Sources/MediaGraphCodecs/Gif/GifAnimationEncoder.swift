/// Makes an animated GIF from RGBA frames as they come: palettes (per frame or per clip),
/// dithering, transparency of unchanged pixels, frames cut to the changed rectangle, delays from
/// timestamps. Bytes come out in order through the `out` arrays; the caller writes them.
///
/// Memory: one frame waits until the next one's time gives its delay; with the clip palette, the
/// first `paletteFrames` frames wait until it is made; the last encoded frame is held so that
/// a following frame with no change only adds its delay to it. Frame buffers are reused.
public final class GifAnimationEncoder {
    public let width: Int
    public let height: Int
    public let settings: GifSettings
    private let writer: GifWriter
    private let quantizer: GifQuantizer
    private let ordered = GifOrderedDither()
    private let diffusion = GifErrorDiffusion()
    private var timing = GifFrameTiming()
    private var diff: GifCanvasDiff
    private var clipPalette: GifPalette?
    /// The clip palette's colours (fixed: clip frames are mapped by our own loops, never by
    /// libimagequant's remap, which would refine them).
    private var clipRGB: [UInt8] = []

    private var free: [[UInt8]] = []
    private var pending: (pixels: [UInt8], start: Double)?
    private var ready: [(pixels: [UInt8], delay: Int)] = []
    private var indices: [UInt8]
    /// The last encoded frame, not yet written, and where its delay sits in it.
    private var held: [UInt8] = []
    private var heldDelay = 0
    private var heldDelayOffset = -1
    private var started = false
    /// Frames written, and frames folded into the one before because nothing changed.
    public private(set) var framesWritten = 0
    public private(set) var framesMerged = 0
    public private(set) var framesDropped = 0

    public init(width: Int, height: Int, settings: GifSettings) throws {
        guard (1...GifWriter.maxSide).contains(width), (1...GifWriter.maxSide).contains(height) else {
            throw CodecError(.invalidInput, component: "gif",
                             message: "a GIF is at most \(GifWriter.maxSide) pixels per side; found \(width)x\(height)")
        }
        self.width = width
        self.height = height
        self.settings = settings
        writer = GifWriter(width: width, height: height)
        quantizer = try GifQuantizer(maxColors: GifSettings.maxColors, speed: settings.speed)
        diff = GifCanvasDiff(width: width, height: height)
        indices = [UInt8](repeating: 0, count: width * height)
    }

    /// Adds a frame shown from `time` seconds: `source` is `width` pixels by `height` rows,
    /// `stride` bytes apart, RGBA (or BGRA when `bgra`). Finished bytes are appended to `out`.
    public func add(_ source: UnsafePointer<UInt8>, stride: Int, bgra: Bool, time: Double, into out: inout [UInt8]) throws {
        if !started {
            out += writer.header(loop: settings.loop)
            started = true
        }
        timing.begin(at: time)
        if let p = pending {
            if let delay = timing.delay(endingAt: time) {
                ready.append((p.pixels, delay))
            } else {
                free.append(p.pixels)
                framesDropped += 1
            }
            pending = nil
        }
        var pixels = free.popLast() ?? [UInt8](repeating: 0, count: width * height * 4)
        Self.copy(source, stride: stride, bgra: bgra, width: width, height: height, into: &pixels)
        pending = (pixels, time)
        try encodeReady(final: false, into: &out)
    }

    /// Ends the clip at `endTime` seconds: the last frames, and the trailer.
    public func finish(endTime: Double, into out: inout [UInt8]) throws {
        guard started else { return }
        if let p = pending {
            ready.append((p.pixels, timing.lastDelay(endingAt: max(endTime, p.start))))
            pending = nil
        }
        try encodeReady(final: true, into: &out)
        out += held
        held = []
        out += GifWriter.trailer
    }

    private func encodeReady(final: Bool, into out: inout [UInt8]) throws {
        if settings.palette == .clip && clipPalette == nil {
            guard final || ready.count >= max(1, settings.paletteFrames), !ready.isEmpty else { return }
            let histogram = try quantizer.makeHistogram()
            for f in ready { try f.pixels.withUnsafeBufferPointer { try histogram.add($0.baseAddress!, width: width, height: height) } }
            clipPalette = try histogram.palette()
            clipRGB = clipPalette!.rgb
        }
        for f in ready {
            try encode(f.pixels, delay: f.delay, into: &out)
            free.append(f.pixels)
        }
        ready.removeAll(keepingCapacity: true)
    }

    private func encode(_ pixels: [UInt8], delay: Int, into out: inout [UInt8]) throws {
        var rgb: [UInt8]
        if clipPalette != nil {
            rgb = clipRGB
            pixels.withUnsafeBufferPointer { src in
                indices.withUnsafeMutableBufferPointer { idx in
                    switch settings.dither {
                    case .diffusion:
                        diffusion.remap(src.baseAddress!, width: width, height: height, rgb: rgb, strength: settings.ditherStrength, into: idx.baseAddress!)
                    case .none:
                        diffusion.remap(src.baseAddress!, width: width, height: height, rgb: rgb, strength: 0, into: idx.baseAddress!)
                    case .ordered:
                        ordered.remap(src.baseAddress!, width: width, height: height, rgb: rgb, strength: settings.ditherStrength, into: idx.baseAddress!)
                    }
                }
            }
        } else {
            let palette = try pixels.withUnsafeBufferPointer {
                try quantizer.palette(forImage: $0.baseAddress!, width: width, height: height)
            }
            try pixels.withUnsafeBufferPointer { src in
                try indices.withUnsafeMutableBufferPointer { idx in
                    switch settings.dither {
                    case .diffusion:
                        try palette.remap(src.baseAddress!, width: width, height: height, dither: settings.ditherStrength, into: idx.baseAddress!)
                    case .none:
                        try palette.remap(src.baseAddress!, width: width, height: height, dither: 0, into: idx.baseAddress!)
                    case .ordered:
                        ordered.remap(src.baseAddress!, width: width, height: height, rgb: palette.rgb,
                                      strength: settings.ditherStrength, into: idx.baseAddress!)
                    }
                }
            }
            rgb = palette.rgb  // after the remap, which refines it
        }
        let transparentIndex = settings.transparency && framesWritten > 0 ? rgb.count / 3 : nil
        let changed = indices.withUnsafeMutableBufferPointer {
            diff.apply(indices: $0.baseAddress!, rgb: rgb, transparentIndex: transparentIndex)
        }
        guard let changed else {
            // nothing changed: the frame before stays up longer
            if heldDelayOffset >= 0 && heldDelay + delay <= GifWriter.maxDelay {
                heldDelay += delay
                held[heldDelayOffset] = UInt8(truncatingIfNeeded: heldDelay)
                held[heldDelayOffset + 1] = UInt8(truncatingIfNeeded: heldDelay >> 8)
                framesMerged += 1
                return
            }
            return try encodeUnchanged(delay: delay, into: &out)
        }
        if transparentIndex != nil { rgb += [0, 0, 0] }
        let rect = settings.crop || framesWritten == 0 ? changed : GifRect(x: 0, y: 0, width: width, height: height)
        out += held
        held.removeAll(keepingCapacity: true)
        heldDelayOffset = held.count + 4  // the delay field of the graphic control extension
        heldDelay = delay
        indices.withUnsafeBufferPointer { idx in
            writer.appendFrame(indices: idx.baseAddress! + rect.y * width + rect.x, stride: width, rect: rect, palette: rgb,
                               transparentIndex: transparentIndex, delay: delay, into: &held)
        }
        framesWritten += 1
    }

    /// A 1x1 transparent frame that only waits (when the frame before cannot wait longer).
    private func encodeUnchanged(delay: Int, into out: inout [UInt8]) throws {
        out += held
        held.removeAll(keepingCapacity: true)
        heldDelayOffset = 4
        heldDelay = delay
        let zero: [UInt8] = [1]
        zero.withUnsafeBufferPointer {
            writer.appendFrame(indices: $0.baseAddress!, stride: 1, rect: GifRect(x: 0, y: 0, width: 1, height: 1),
                               palette: [0, 0, 0, 0, 0, 0], transparentIndex: 1, delay: delay, into: &held)
        }
        framesWritten += 1
    }

    private static func copy(_ src: UnsafePointer<UInt8>, stride: Int, bgra: Bool, width: Int, height: Int, into dst: inout [UInt8]) {
        dst.withUnsafeMutableBufferPointer { d in
            let base = d.baseAddress!
            for y in 0..<height {
                let s = src + y * stride, o = base + y * width * 4
                if bgra {
                    for x in 0..<width {
                        o[4 * x] = s[4 * x + 2]; o[4 * x + 1] = s[4 * x + 1]; o[4 * x + 2] = s[4 * x]; o[4 * x + 3] = 255
                    }
                } else {
                    for x in 0..<width {
                        o[4 * x] = s[4 * x]; o[4 * x + 1] = s[4 * x + 1]; o[4 * x + 2] = s[4 * x + 2]; o[4 * x + 3] = 255
                    }
                }
            }
        }
    }
}
