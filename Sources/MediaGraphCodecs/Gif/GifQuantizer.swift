import CImageQuant

/// Colour quantization for GIF frames through libimagequant (the quantizer of pngquant and
/// gifski): palettes of at most `maxColors` colours for one image or for a histogram of several,
/// and remapping with its error diffusion dither.
public final class GifQuantizer {
    private let attr: OpaquePointer

    /// `speed` 1 (slowest, best) ... 10 (fastest); `maxColors` 2...256.
    public init(maxColors: Int, speed: Int) throws {
        guard let attr = liq_attr_create() else {
            throw CodecError(.openFailed, component: "gif", message: "libimagequant could not allocate its settings")
        }
        self.attr = attr
        guard liq_set_max_colors(attr, Int32(maxColors)) == LIQ_OK else {
            throw CodecError(.invalidSetting, component: "gif", message: "libimagequant refused \(maxColors) colours (expected 2...256)")
        }
        guard liq_set_speed(attr, Int32(speed)) == LIQ_OK else {
            throw CodecError(.invalidSetting, component: "gif", param: "speed", message: "libimagequant refused speed \(speed) (expected 1...10)")
        }
    }

    deinit { liq_attr_destroy(attr) }

    /// A palette for one RGBA image (`width * 4` bytes per row; read only while this runs).
    public func palette(forImage rgba: UnsafePointer<UInt8>, width: Int, height: Int) throws -> GifPalette {
        let image = try makeImage(rgba, width: width, height: height)
        defer { liq_image_destroy(image) }
        var result: OpaquePointer?
        let status = liq_image_quantize(image, attr, &result)
        guard status == LIQ_OK, let result else { throw failure("quantize a frame", status) }
        return GifPalette(result: result, attr: attr)
    }

    /// Starts a histogram that several images feed (the clip palette).
    public func makeHistogram() throws -> GifHistogram {
        guard let h = liq_histogram_create(attr) else { throw failure("create a histogram", LIQ_OUT_OF_MEMORY) }
        return GifHistogram(histogram: h, quantizer: self)
    }

    func add(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int, to histogram: OpaquePointer) throws {
        let image = try makeImage(rgba, width: width, height: height)
        defer { liq_image_destroy(image) }
        let status = liq_histogram_add_image(histogram, attr, image)
        guard status == LIQ_OK else { throw failure("add a frame to the clip histogram", status) }
    }

    func quantize(_ histogram: OpaquePointer) throws -> GifPalette {
        var result: OpaquePointer?
        let status = liq_histogram_quantize(histogram, attr, &result)
        guard status == LIQ_OK, let result else { throw failure("quantize the clip histogram", status) }
        return GifPalette(result: result, attr: attr)
    }

    func makeImage(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int) throws -> OpaquePointer {
        guard let image = liq_image_create_rgba(attr, rgba, Int32(width), Int32(height), 0) else {
            throw CodecError(.invalidInput, component: "gif", message: "libimagequant refused a \(width)x\(height) image")
        }
        return image
    }

    private func failure(_ what: String, _ status: liq_error) -> CodecError {
        CodecError(.processingFailed, component: "gif", message: "libimagequant could not \(what) (error \(status.rawValue))")
    }
}

/// Colours of several frames, quantized together into one palette.
public final class GifHistogram {
    private let histogram: OpaquePointer
    private let quantizer: GifQuantizer

    init(histogram: OpaquePointer, quantizer: GifQuantizer) {
        self.histogram = histogram
        self.quantizer = quantizer
    }

    deinit { liq_histogram_destroy(histogram) }

    /// Adds the colours of one RGBA image (`width * 4` bytes per row).
    public func add(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int) throws {
        try quantizer.add(rgba, width: width, height: height, to: histogram)
    }

    /// The palette for every image added.
    public func palette() throws -> GifPalette { try quantizer.quantize(histogram) }
}

/// A quantization result: the palette, and remapping of images onto it.
public final class GifPalette {
    private let result: OpaquePointer
    private let attr: OpaquePointer

    init(result: OpaquePointer, attr: OpaquePointer) {
        self.result = result
        self.attr = attr
    }

    deinit { liq_result_destroy(result) }

    /// The colours as RGB triplets. libimagequant refines them while it remaps, so read them
    /// after `remap` for the palette that image's indices refer to.
    public var rgb: [UInt8] {
        guard let p = liq_get_palette(result) else { return [] }
        let count = Int(p.pointee.count)
        var out = [UInt8](repeating: 0, count: count * 3)
        withUnsafeBytes(of: p.pointee.entries) { raw in
            let c = raw.bindMemory(to: liq_color.self)
            for i in 0..<min(count, 256) {
                out[3 * i] = c[i].r; out[3 * i + 1] = c[i].g; out[3 * i + 2] = c[i].b
            }
        }
        return out
    }

    /// Maps an RGBA image onto the palette with error diffusion of `dither` strength (0...1),
    /// one index per pixel into `indices` (`width * height` bytes).
    public func remap(_ rgba: UnsafePointer<UInt8>, width: Int, height: Int, dither: Double,
                      into indices: UnsafeMutablePointer<UInt8>) throws {
        guard let image = liq_image_create_rgba(attr, rgba, Int32(width), Int32(height), 0) else {
            throw CodecError(.invalidInput, component: "gif", message: "libimagequant refused a \(width)x\(height) image")
        }
        defer { liq_image_destroy(image) }
        _ = liq_set_dithering_level(result, Float(dither))
        let status = liq_write_remapped_image(result, image, indices, width * height)
        guard status == LIQ_OK else {
            throw CodecError(.processingFailed, component: "gif", message: "libimagequant could not remap a frame (error \(status.rawValue))")
        }
    }
}
