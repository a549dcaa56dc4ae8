import MediaGraphCore
import MediaGraphCore

/// Reading and writing tightly packed frames (as raw and Y4M files hold them) from and to
/// pooled frames with padded rows.
enum FrameIO {
    /// Reads one packed frame into `planes`; returns the bytes read (less than the frame size only
    /// at end of file).
    static func read(_ file: InputFile, into planes: FramePlanes) throws -> Int {
        var total = 0
        for p in 0..<planes.planeCount {
            let rowBytes = planes.rowBytes(p)
            let rows = planes.planeSize(p).height
            if planes.stride(p) == rowBytes {
                let n = try file.read(into: planes.data(p), count: rowBytes * rows)
                total += n
                if n < rowBytes * rows { return total }
            } else {
                for y in 0..<rows {
                    let n = try file.read(into: planes.data(p) + y * planes.stride(p), count: rowBytes)
                    total += n
                    if n < rowBytes { return total }
                }
            }
        }
        return total
    }

    /// Reads frame number `index` (packed, as raw and Y4M files hold it) into a new pooled frame
    /// timed at `index` in frame ticks; a short read is an error naming the frame and offset,
    /// with `hint` appended.
    static func readFrame(_ file: InputFile, format: VideoFormat, index: Int, hint: String = "") throws -> SampleBuffer {
        let at = file.offset
        let frameBytes = format.pixelFormat.packedFrameSize(width: format.width, height: format.height)
        var buffer = WritableBuffer(frame: format)
        let n = try read(file, into: buffer.planes!)
        if n < frameBytes {
            throw NodeFailure("\(file.displayName): frame \(index) is truncated: \(n) of \(frameBytes) bytes at byte \(at)\(hint)")
        }
        buffer.pts = Int64(index)
        buffer.dts = Int64(index)
        buffer.duration = 1
        buffer.flags = .keyFrame
        return buffer.freeze()
    }

    /// Writes the planes of a frame packed (no row padding).
    static func write(_ planes: FramePlanes, to file: OutputFile) throws {
        for p in 0..<planes.planeCount {
            let rowBytes = planes.rowBytes(p)
            for y in 0..<planes.planeSize(p).height {
                try file.write(planes.data(p) + y * planes.stride(p), count: rowBytes)
            }
        }
    }
}
