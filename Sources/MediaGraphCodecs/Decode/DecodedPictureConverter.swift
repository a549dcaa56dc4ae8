import CAVCodec
import CSwscale
import MediaGraphCore

/// Converts a decoded picture in any libavutil pixel format and size (nv12, gbrp, pal8, yuva420p,
/// p010, 12-bit, a stream that changed size mid-way …) to the format the decoder declared, with
/// libswscale (bicubic, as ffmpeg's automatic scaler). One instance per source geometry; it
/// allocates nothing per picture.
final class DecodedPictureConverter {
    let sourceFormat: Int32
    let sourceWidth: Int32
    let sourceHeight: Int32
    let sourceFullRange: Bool
    let destination: VideoFormat
    private var context: OpaquePointer?
    private let sourcePlanes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 4)
    private let sourceStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
    private let destinationPlanes = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 4)
    private let destinationStrides = UnsafeMutablePointer<Int32>.allocate(capacity: 4)

    init(sourceFormat: Int32, width: Int32, height: Int32, sourceFullRange: Bool, sourceMatrix: YCbCrMatrix,
         destination: VideoFormat, component: String) throws {
        self.sourceFormat = sourceFormat
        self.sourceWidth = width
        self.sourceHeight = height
        self.sourceFullRange = sourceFullRange
        self.destination = destination
        sourcePlanes.initialize(repeating: nil, count: 4)
        sourceStrides.initialize(repeating: 0, count: 4)
        destinationPlanes.initialize(repeating: nil, count: 4)
        destinationStrides.initialize(repeating: 0, count: 4)
        let source = AVPixelFormat(rawValue: sourceFormat)
        guard sws_isSupportedInput(source) != 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: "libswscale cannot read decoded \(LibavFormats.pixelFormatName(sourceFormat)) pictures")
        }
        guard let ctx = sws_getContext(width, height, source, Int32(destination.width), Int32(destination.height),
                                       LibavFormats.avPixelFormat(destination.pixelFormat), SWS_BICUBIC, nil, nil, nil) else {
            throw CodecError(.processingFailed, component: component,
                             message: "libswscale cannot convert \(LibavFormats.pixelFormatName(sourceFormat)) \(width)x\(height) to \(destination.pixelFormat) \(destination.width)x\(destination.height)")
        }
        context = ctx
        let destinationFull: Int32 = !destination.pixelFormat.isRGB && destination.range == .full ? 1 : 0
        let matrix = destination.matrix == .unspecified ? sourceMatrix : destination.matrix
        _ = sws_setColorspaceDetails(ctx, sws_getCoefficients(PixelConverter.swsColorspace(sourceMatrix)), sourceFullRange ? 1 : 0,
                                     sws_getCoefficients(PixelConverter.swsColorspace(matrix)), destinationFull,
                                     0, 1 << 16, 1 << 16)
    }

    deinit {
        sws_freeContext(context)
        sourcePlanes.deallocate()
        sourceStrides.deallocate()
        destinationPlanes.deallocate()
        destinationStrides.deallocate()
    }

    func matches(format: Int32, width: Int32, height: Int32, fullRange: Bool) -> Bool {
        format == sourceFormat && width == sourceWidth && height == sourceHeight && fullRange == sourceFullRange
    }

    /// Converts the picture whose planes start at `data` (already offset for cropping).
    func convert(data: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?),
                 strides: (Int32, Int32, Int32, Int32), into out: FramePlanes) -> Bool {
        sourcePlanes[0] = UnsafePointer(data.0); sourcePlanes[1] = UnsafePointer(data.1)
        sourcePlanes[2] = UnsafePointer(data.2); sourcePlanes[3] = UnsafePointer(data.3)
        sourceStrides[0] = strides.0; sourceStrides[1] = strides.1; sourceStrides[2] = strides.2; sourceStrides[3] = strides.3
        destinationPlanes[0] = out.data0
        destinationPlanes[1] = out.data1
        destinationPlanes[2] = out.data2
        destinationStrides[0] = Int32(out.stride0)
        destinationStrides[1] = Int32(out.stride1)
        destinationStrides[2] = Int32(out.stride2)
        let rows = sws_scale(context, sourcePlanes, sourceStrides, 0, sourceHeight, destinationPlanes, destinationStrides)
        return rows == Int32(destination.height)
    }
}
