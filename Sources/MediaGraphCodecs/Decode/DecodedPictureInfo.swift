import CAVCodec
import CAVFormat
import MediaGraphCore

/// How a decoded picture describes itself (libavcodec's AVFrame fields): what the decoder found
/// in the bitstream, before the decoder maps it onto the format it declared.
public struct DecodedPictureInfo: Sendable, Equatable {
    /// libavutil's pixel format number and name ("yuv420p", "yuvj422p", "nv12" …).
    public var avPixelFormat: Int32
    public var width: Int
    public var height: Int
    public var range: ColorRange
    public var matrix: YCbCrMatrix
    public var color: VideoColor
    /// (0:1 when unknown).
    public var sampleAspect: Rational
    /// Display rotation from a display-matrix side data, in `VideoFormat.rotation`'s convention; 0 when there is none.
    public var rotation: Int
    public var keyFrame: Bool
    /// The picture holds two fields sampled at different times, and which came first.
    public var interlaced: Bool
    public var topFieldFirst: Bool

    public var pixelFormatName: String { LibavFormats.pixelFormatName(avPixelFormat) }

    /// Our pixel format of the same layout, if there is one.
    public var pixelFormat: PixelFormat? { LibavFormats.pixelFormat(avPixelFormat)?.format }

    init(_ f: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) {
        let frame = f.pointee
        avPixelFormat = frame.format
        self.width = width
        self.height = height
        let implied = LibavFormats.pixelFormat(frame.format)
        range = implied?.fullRange == true && !(implied?.format.isRGB ?? false) ? .full : LibavFormats.range(frame.color_range)
        matrix = YCbCrMatrix(code: Int(frame.colorspace.rawValue))
        color = VideoColor(primaries: ColorPrimaries(code: Int(frame.color_primaries.rawValue)),
                           transfer: TransferCharacteristic(code: Int(frame.color_trc.rawValue)),
                           chromaLocation: ChromaLocation(code: Int(frame.chroma_location.rawValue)))
        let sar = frame.sample_aspect_ratio
        sampleAspect = sar.den > 0 ? Rational(Int64(sar.num), Int64(sar.den)) : Rational(0, 1)
        rotation = 0
        if let side = av_frame_get_side_data(f, AV_FRAME_DATA_DISPLAYMATRIX), side.pointee.size >= 36, let data = side.pointee.data {
            // the stream's convention (`VideoFormat.rotation`): one reading for both
            rotation = LibavStreamMapping.rotation(UnsafeRawPointer(data).assumingMemoryBound(to: Int32.self)).degrees
        }
        keyFrame = frame.key_frame != 0
        interlaced = frame.interlaced_frame != 0
        topFieldFirst = frame.top_field_first != 0
    }
}

extension DecodedPictureInfo {
    /// The flags of the frame made from this picture: key frame, and interlacing as decoded.
    var bufferFlags: BufferFlags {
        var f: BufferFlags = keyFrame ? .keyFrame : []
        if interlaced {
            f.insert(.interlaced)
            if topFieldFirst { f.insert(.topFieldFirst) }
        }
        return f
    }
}
