import CAVCodec
import CSwscale
import MediaGraphCore

/// Resampling filter of the pixel converter (libswscale's SWS_* flags; ffmpeg's scale filter
/// `flags=` names).
public enum ScalingAlgorithm: String, CaseIterable, Hashable, Sendable {
    case fastBilinear = "fast-bilinear"
    case bilinear, bicubic, point, area, lanczos

    /// The name ffmpeg's `scale=…:flags=` and `-sws_flags` take.
    public var ffmpegName: String {
        switch self {
        case .fastBilinear: return "fast_bilinear"
        case .point: return "neighbor"
        default: return rawValue
        }
    }

    var swsFlag: Int32 {
        switch self {
        case .fastBilinear: return SWS_FAST_BILINEAR
        case .bilinear: return SWS_BILINEAR
        case .bicubic: return SWS_BICUBIC
        case .point: return SWS_POINT
        case .area: return SWS_AREA
        case .lanczos: return SWS_LANCZOS
        }
    }
}

/// Converts and scales raw video between pixel formats, sizes, ranges and YCbCr matrices with
/// libswscale. Created once per pair of formats; `convert` then allocates nothing.
///
/// The matrix and range of each side are taken from its `VideoFormat` (through
/// sws_setColorspaceDetails); they matter only on the YUV/gray side of a conversion. With the
/// same algorithm the output is byte-identical to ffmpeg's `scale` filter (`flags=` the same
/// algorithm, `in_range`/`out_range`/`in_color_matrix`/`out_color_matrix` for non-default
/// colour settings), which runs the same library the same way.
public final class PixelConverter {
    public let source: VideoFormat
    public let destination: VideoFormat
    public let algorithm: ScalingAlgorithm
    private var context: OpaquePointer?
    /// sws_scale's pointer and stride arrays, allocated once (in init, after the size check: an
    /// init that throws before every property is set runs no deinit, so nothing may be allocated
    /// before that point).
    private let sourcePlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let destinationPlanes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private let sourceStrides: UnsafeMutablePointer<Int32>
    private let destinationStrides: UnsafeMutablePointer<Int32>
    private var frameNumber = 0
    /// libswscale reads one pixel past the end of each row of an odd-width RGB source (its
    /// two-pixel chroma averaging). Where the source's stride leaves no room for that after the
    /// last row, that row is converted from this copy, followed by zeros as in ffmpeg's packets.
    private let lastRowCopy: UnsafeMutablePointer<UInt8>?
    private let lastRowBytes: Int

    /// Checks sizes without creating anything.
    public static func validate(from source: VideoFormat, to destination: VideoFormat) throws {
        for (side, format) in [("source", source), ("destination", destination)] {
            guard format.width > 0 && format.width <= 16384 else {
                throw CodecError.setting("convert", "\(side) width", expected: "1...16384", found: "\(format.width)")
            }
            guard format.height > 0 && format.height <= 16384 else {
                throw CodecError.setting("convert", "\(side) height", expected: "1...16384", found: "\(format.height)")
            }
        }
    }

    public init(from source: VideoFormat, to destination: VideoFormat, algorithm: ScalingAlgorithm = .bicubic) throws {
        try Self.validate(from: source, to: destination)
        LibraryLog.install()
        self.source = source
        self.destination = destination
        self.algorithm = algorithm
        lastRowBytes = source.width * source.pixelFormat.bytesPerPixel(plane: 0)
        if source.pixelFormat.isRGB && source.width % 2 == 1 {
            lastRowCopy = .allocate(capacity: lastRowBytes + 64)
            lastRowCopy?.initialize(repeating: 0, count: lastRowBytes + 64)
        } else {
            lastRowCopy = nil
        }
        sourcePlanes = .allocate(capacity: 4)
        destinationPlanes = .allocate(capacity: 4)
        sourceStrides = .allocate(capacity: 4)
        destinationStrides = .allocate(capacity: 4)
        sourcePlanes.initialize(repeating: nil, count: 4)
        destinationPlanes.initialize(repeating: nil, count: 4)
        sourceStrides.initialize(repeating: 0, count: 4)
        destinationStrides.initialize(repeating: 0, count: 4)
        // Set up as ffmpeg's scale filter does (libavfilter/vf_scale.c): options on an
        // allocated context, the YUV ranges before init (init picks its code paths from them),
        // then the matrices and ranges through sws_setColorspaceDetails.
        guard let ctx = sws_alloc_context() else {
            throw CodecError(.openFailed, component: "convert", message: "out of memory allocating a libswscale context")
        }
        context = ctx
        let raw = UnsafeMutableRawPointer(ctx)
        // The range flag means something only for YUV and gray; for RGB libswscale expects 0
        // (a 1 there would make it expand the range of the YUV side a second time).
        let sourceFull: Int32 = !source.pixelFormat.isRGB && source.range == .full ? 1 : 0
        let destinationFull: Int32 = !destination.pixelFormat.isRGB && destination.range == .full ? 1 : 0
        let options: [(String, Int64)] = [
            ("srcw", Int64(source.width)), ("srch", Int64(source.height)),
            ("src_format", Int64(LibavFormats.avPixelFormat(source.pixelFormat).rawValue)),
            ("dstw", Int64(destination.width)), ("dsth", Int64(destination.height)),
            ("dst_format", Int64(LibavFormats.avPixelFormat(destination.pixelFormat).rawValue)),
            ("sws_flags", Int64(algorithm.swsFlag)),
            ("threads", 1),
            ("src_range", Int64(sourceFull)), ("dst_range", Int64(destinationFull)),
        ]
        for (name, value) in options {
            let r = av_opt_set_int(raw, name, value, 0)
            guard r >= 0 else {
                throw CodecError(.openFailed, component: "convert", message: "libswscale refused option \(name)=\(value) (error \(r))")
            }
        }
        let initialized = sws_init_context(ctx, nil, nil)
        guard initialized >= 0 else {
            throw CodecError(.openFailed, component: "convert",
                             message: "libswscale cannot convert \(source) to \(destination) with \(algorithm.rawValue) (error \(initialized))")
        }
        // Each side's matrix as its format states it, RGB sides included: libswscale consults
        // the source table even for RGB input when it scales in stages, so passing anything
        // else would break the identity with ffmpeg's scale filter given the same matrices.
        let sourceMatrix = source.matrix
        let destinationMatrix = destination.matrix
        // Returns -1 for conversions where the tables do not apply (YUV → YUV): not an error.
        _ = sws_setColorspaceDetails(ctx, sws_getCoefficients(Self.swsColorspace(sourceMatrix)), sourceFull,
                                     sws_getCoefficients(Self.swsColorspace(destinationMatrix)), destinationFull,
                                     0, 1 << 16, 1 << 16)
    }

    deinit {
        _ = LibraryLog.take(for: context.map { UnsafeMutableRawPointer($0) })
        sws_freeContext(context)
        lastRowCopy?.deallocate()
        sourcePlanes.deallocate()
        destinationPlanes.deallocate()
        sourceStrides.deallocate()
        destinationStrides.deallocate()
    }

    /// Converts one frame. `source` and `destination` must have the formats and sizes given at
    /// creation (any strides).
    public func convert(source frame: FramePlanes, destination out: FramePlanes) throws {
        try FrameCheck.check(frame, format: source.pixelFormat, width: source.width, height: source.height,
                             component: "convert", role: "source", frame: frameNumber)
        try FrameCheck.check(out, format: destination.pixelFormat, width: destination.width, height: destination.height,
                             component: "convert", role: "destination", frame: frameNumber)
        for i in 0..<3 {
            sourcePlanes[i] = i < frame.planeCount ? UnsafePointer(Self.plane(frame, i)) : nil
            sourceStrides[i] = i < frame.planeCount ? Int32(frame.stride(i)) : 0
            destinationPlanes[i] = i < out.planeCount ? Self.plane(out, i) : nil
            destinationStrides[i] = i < out.planeCount ? Int32(out.stride(i)) : 0
        }
        var rows: Int32
        if let lastRowCopy, frame.stride0 < lastRowBytes + 4 {
            // All rows but the last from the frame, the last from the padded copy: libswscale
            // takes slices in order and gives the same result as in one call.
            let h = Int32(source.height)
            rows = h > 1 ? sws_scale(context, sourcePlanes, sourceStrides, 0, h - 1, destinationPlanes, destinationStrides) : 0
            lastRowCopy.update(from: frame.data0 + (source.height - 1) * frame.stride0, count: lastRowBytes)
            sourcePlanes[0] = UnsafePointer(lastRowCopy)  // a slice starts at its own first row
            rows += sws_scale(context, sourcePlanes, sourceStrides, h - 1, 1, destinationPlanes, destinationStrides)
        } else {
            rows = sws_scale(context, sourcePlanes, sourceStrides, 0, Int32(source.height), destinationPlanes, destinationStrides)
        }
        guard rows == Int32(destination.height) else {
            throw CodecError(.processingFailed, component: "convert",
                             message: "frame \(frameNumber): libswscale wrote \(rows) of \(destination.height) rows")
        }
        frameNumber += 1
    }

    /// Plane `i` without FramePlanes.data(_:)'s force unwrap (FrameCheck has checked them).
    private static func plane(_ f: FramePlanes, _ i: Int) -> UnsafeMutablePointer<UInt8>? {
        switch i {
        case 0: return f.data0
        case 1: return f.data1
        default: return f.data2
        }
    }

    /// libswscale's coefficient table for a matrix (unspecified and the ones it has no table
    /// for compute as BT.601, as ffmpeg's scale filter does).
    static func swsColorspace(_ matrix: YCbCrMatrix) -> Int32 {
        switch matrix {
        case .bt709: return SWS_CS_ITU709
        case .fcc: return SWS_CS_FCC
        case .smpte240m: return SWS_CS_SMPTE240M
        case .bt2020nc, .bt2020c: return SWS_CS_BT2020
        default: return SWS_CS_ITU601
        }
    }
}
