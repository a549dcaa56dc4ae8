import MediaGraphCore

/// Turns a frame clockwise by 90, 180 or 270 degrees: what a display rotation asks a player to
/// do, and what ffmpeg's autorotate does before filters (`transpose=clock` for 90,
/// `hflip,vflip` for 180, `transpose=cclock` for 270). A quarter turn swaps width and height.
///
/// With `mirrored`, the turned picture is also flipped left to right, which undoes a display
/// matrix that mirrors: ffmpeg's autorotate's `transpose=cclock_flip` is a turn of 90 mirrored,
/// `clock_flip` of 270, a lone `hflip` of 0.
///
/// Pixels are moved, never blended, so the result is exact. A quarter turn of 4:2:2 would be
/// 4:4:0, which MediaGraph has no format for (ffmpeg's transpose refuses it too): 90 and 270
/// take the formats whose chroma is subsampled alike in both directions, 0 and 180 take every
/// format. Source and destination must be different memory.
public struct QuarterTurnKernel: Sendable {
    /// Degrees clockwise: 90, 180 or 270 (0 only mirrored).
    public let degrees: Int
    /// Whether the turned picture is flipped left to right.
    public let mirrored: Bool

    /// Pixel formats a turn by `degrees` accepts.
    public static func formats(degrees: Int) -> [PixelFormat] {
        degrees % 180 == 0 ? PixelFormat.allCases : PixelFormat.allCases.filter { $0.chromaShift.x == $0.chromaShift.y }
    }

    /// nil unless `degrees` is 90, 180 or 270, or 0 with `mirrored` (nothing to do otherwise).
    public init?(degrees: Int, mirrored: Bool = false) {
        guard [90, 180, 270].contains(degrees) || (degrees == 0 && mirrored) else { return nil }
        self.degrees = degrees
        self.mirrored = mirrored
    }

    /// The size of a `width`x`height` frame after the turn.
    public func turnedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        degrees % 180 == 0 ? (width, height) : (height, width)
    }

    var name: String { "quarter turn \(degrees)°" + (mirrored ? " mirrored" : "") }

    /// Writes `source` turned into `destination` (the same format, `turnedSize`; other memory),
    /// over bands of destination rows on `threads` threads (0 = all cores).
    public func run(source: FramePlanes, destination: FramePlanes, threads: Int = 0) throws {
        let accepted = Self.formats(degrees: degrees)
        guard accepted.contains(source.format) else {
            throw KernelError.unsupportedFormat(kernel: name, found: source.format, accepted: accepted)
        }
        let size = turnedSize(width: source.width, height: source.height)
        let destinationProblem = FrameCheck.problem(destination, format: source.format, width: size.width, height: size.height)
        if case let .mismatch(expected, found)? = destinationProblem {
            throw KernelError.mismatchedFrames(kernel: name, source: expected, destination: found)
        }
        if let p = FrameCheck.problem(source, format: source.format, width: source.width, height: source.height) ?? destinationProblem {
            throw KernelError.badPlanes(kernel: name, detail: "\(p)")
        }
        RowBands.run(rows: destination.height, threads: threads) { band in
            for p in 0..<source.planeCount {
                let rows = RowBands.planeRows(band, plane: p, of: destination)
                let plane = Plane(source: source, destination: destination, plane: p)
                switch source.format.bytesPerPixel(plane: p) {
                case 1: turn(plane, rows: rows, as: UInt8.self)
                case 2: turn(plane, rows: rows, as: UInt16.self)
                default: turn(plane, rows: rows, as: UInt32.self)
                }
            }
        }
    }

    /// One plane's pointers, strides and source size.
    struct Plane {
        var s: UnsafeRawPointer, d: UnsafeMutableRawPointer
        var ss: Int, ds: Int
        var width: Int, height: Int

        init(source: FramePlanes, destination: FramePlanes, plane p: Int) {
            s = UnsafeRawPointer(source.data(p))
            d = UnsafeMutableRawPointer(destination.data(p))
            ss = source.stride(p)
            ds = destination.stride(p)
            (width, height) = source.planeSize(p)
        }
    }

    /// Destination rows `rows` of one plane, pixels of type `T`. Quarter turns read a source
    /// column per destination row: done in tiles of `tile` rows so each source row read is
    /// used `tile` times while it is in cache.
    @inline(__always)
    func turn<T: FixedWidthInteger>(_ p: Plane, rows: Range<Int>, as _: T.Type) {
        let size = MemoryLayout<T>.size
        if degrees % 180 == 0 {
            // 180: destination (x, y) = source (w-1-x, h-1-y); mirrored, source (x, h-1-y);
            // 0 mirrored: source (w-1-x, y)
            let reversed = (degrees == 180) != mirrored
            for y in rows {
                let src = p.s + (degrees == 180 ? p.height - 1 - y : y) * p.ss, dst = p.d + y * p.ds
                if !reversed {
                    dst.copyMemory(from: src, byteCount: p.width * size)
                    continue
                }
                for x in 0..<p.width {
                    dst.storeBytes(of: src.loadUnaligned(fromByteOffset: (p.width - 1 - x) * size, as: T.self), toByteOffset: x * size, as: T.self)
                }
            }
            return
        }
        // destination is h wide and w high; 90° clockwise: destination (x, y) = source (y, h-1-x);
        // 270°: destination (x, y) = source (w-1-y, x); mirrored, x is counted from the right
        let tile = 16
        let outWidth = p.height
        var y0 = rows.lowerBound
        while y0 < rows.upperBound {
            let y1 = min(y0 + tile, rows.upperBound)
            for x in 0..<outWidth {
                let column = mirrored ? outWidth - 1 - x : x
                let sourceRow = degrees == 90 ? p.height - 1 - column : column
                let src = p.s + sourceRow * p.ss
                for y in y0..<y1 {
                    let sourceColumn = degrees == 90 ? y : p.width - 1 - y
                    p.d.storeBytes(of: src.loadUnaligned(fromByteOffset: sourceColumn * size, as: T.self),
                                   toByteOffset: y * p.ds + x * size, as: T.self)
                }
            }
            y0 = y1
        }
    }
}
