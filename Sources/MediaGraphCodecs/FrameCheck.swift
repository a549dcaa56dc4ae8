import MediaGraphCore

/// Checks a frame before a C library reads it: the format and size expected, a pointer for
/// every plane, and strides that hold a row (a shorter stride would make the library read
/// outside the frame).
enum FrameCheck {
    static func check(_ planes: FramePlanes, format: PixelFormat, width: Int, height: Int,
                      component: String, role: String = "", frame: Int) throws {
        let what = role.isEmpty ? "" : "\(role) "
        guard planes.format == format, planes.width == width, planes.height == height else {
            throw CodecError(.invalidInput, component: component,
                             message: "frame \(frame): expected \(what)\(format) \(width)x\(height), found \(planes.format) \(planes.width)x\(planes.height)")
        }
        let pointers = [planes.data1, planes.data2]
        for i in 0..<format.planeCount {
            if i > 0 && pointers[i - 1] == nil {
                throw CodecError(.invalidInput, component: component,
                                 message: "frame \(frame): \(what)\(format) plane \(i) has no data pointer")
            }
            let stride = i == 0 ? planes.stride0 : (i == 1 ? planes.stride1 : planes.stride2)
            let rowBytes = format.planeSize(i, width: width, height: height).width * format.bytesPerPixel(plane: i)
            guard stride >= rowBytes else {
                throw CodecError(.invalidInput, component: component,
                                 message: "frame \(frame): \(what)plane \(i) stride \(stride) is shorter than its row of \(rowBytes) bytes")
            }
        }
    }
}
