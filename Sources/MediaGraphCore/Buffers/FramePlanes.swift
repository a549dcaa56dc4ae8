/// Pointers to the planes of one raw video frame, with their strides: what kernels, shaders and
/// codecs work on. A plain value (no allocation, no reference counting) so hot loops can take it
/// by value. It does not own the memory: the `SampleBuffer` it came from keeps that alive.
public struct FramePlanes {
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    public var data0: UnsafeMutablePointer<UInt8>
    public var data1: UnsafeMutablePointer<UInt8>?
    public var data2: UnsafeMutablePointer<UInt8>?
    public var stride0: Int
    public var stride1: Int
    public var stride2: Int

    public init(format: PixelFormat, width: Int, height: Int,
                data: [UnsafeMutablePointer<UInt8>], strides: [Int]) {
        precondition(data.count == format.planeCount && strides.count == format.planeCount,
                     "FramePlanes: \(format) has \(format.planeCount) planes")
        self.format = format
        self.width = width
        self.height = height
        data0 = data[0]
        data1 = data.count > 1 ? data[1] : nil
        data2 = data.count > 2 ? data[2] : nil
        stride0 = strides[0]
        stride1 = strides.count > 1 ? strides[1] : 0
        stride2 = strides.count > 2 ? strides[2] : 0
    }

    public init(format: PixelFormat, width: Int, height: Int,
                data0: UnsafeMutablePointer<UInt8>, stride0: Int,
                data1: UnsafeMutablePointer<UInt8>? = nil, stride1: Int = 0,
                data2: UnsafeMutablePointer<UInt8>? = nil, stride2: Int = 0) {
        self.format = format
        self.width = width
        self.height = height
        self.data0 = data0
        self.data1 = data1
        self.data2 = data2
        self.stride0 = stride0
        self.stride1 = stride1
        self.stride2 = stride2
    }

    @inlinable public var planeCount: Int { format.planeCount }

    /// Base pointer of plane `i` (0 ..< planeCount).
    @inlinable public func data(_ i: Int) -> UnsafeMutablePointer<UInt8> {
        switch i {
        case 0: return data0
        case 1: return data1!
        default: return data2!
        }
    }

    /// Bytes from one row of plane `i` to the next.
    @inlinable public func stride(_ i: Int) -> Int {
        switch i {
        case 0: return stride0
        case 1: return stride1
        default: return stride2
        }
    }

    /// Width in pixels and height in rows of plane `i`.
    @inlinable public func planeSize(_ i: Int) -> (width: Int, height: Int) {
        format.planeSize(i, width: width, height: height)
    }

    /// Bytes of pixel data in one row of plane `i` (excluding padding).
    @inlinable public func rowBytes(_ i: Int) -> Int {
        planeSize(i).width * format.bytesPerPixel(plane: i)
    }
}
