import MediaGraphCore

/// `testsrc`: a deterministic moving pattern — colour bars that scroll one step per frame, a grey
/// ramp, and the frame number drawn as digits — so every frame differs and is reproducible.
public final class TestSource: SourceNode, RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "testsrc",
        doc: "Deterministic moving test pattern (scrolling colour bars, a ramp, the frame number).",
        category: .source,
        outputs: [PortSpec("out", .video(PixelFormat.eightBit), doc: "raw video")],
        params: ParamSpec.list(widthParam, heightParam, rateParam, framesParam, firstFrameParam, formatParam))
    static let widthParam = Param<Int>("width", 2...16384, default: 1280, doc: "frame width in pixels")
    static let heightParam = Param<Int>("height", 2...16384, default: 720, doc: "frame height in pixels")
    static let rateParam = Param<Rational>.rational("rate", default: Rational(30, 1), doc: "frame rate")
    static let framesParam = Param<Int>("frames", 0...100_000_000, default: 300, doc: "number of frames (0 = until stopped)")
    static let firstFrameParam = Param<Int>("first-frame", 0...100_000_000, default: 0,
                                            doc: "number of the first frame: the pattern and timestamps start there, as frame first-frame of a longer run (a segment: mediagraph run-segment sets it)")
    static let formatParam = Param<PixelFormat>("format", choices: PixelFormat.eightBit, default: .yuv420p, doc: "pixel format")

    let format: VideoFormat
    let frames: Int
    let firstFrame: Int
    let stop: StopFlag
    var index = 0
    /// One row of the bar pattern per plane, rebuilt per frame (no allocation: reused).
    var rowScratch: [[UInt8]]

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let pf = p[Self.formatParam]
        let w = p[Self.widthParam], h = p[Self.heightParam]
        if pf.chromaShift.x > 0 && w % 2 != 0 || pf.chromaShift.y > 0 && h % 2 != 0 {
            throw NodeFailure("param 'width'/'height': \(pf) needs even dimensions, found \(w)x\(h)")
        }
        format = VideoFormat(pixelFormat: pf, width: w, height: h, frameRate: p[Self.rateParam])
        frames = p[Self.framesParam]
        firstFrame = p[Self.firstFrameParam]
        stop = setup.stop
        rowScratch = (0..<pf.planeCount).map { [UInt8](repeating: 0, count: pf.planeSize($0, width: w, height: h).width * pf.bytesPerPixel(plane: $0)) }
    }

    public var expectedCount: Int? { frames > 0 ? frames : nil }
    public var endlessBecause: String? { frames > 0 ? nil : "has frames: 0" }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }

    // Eight bars: white, yellow, cyan, green, magenta, red, blue, black (75% intensity), as RGB.
    static let bars: [(UInt8, UInt8, UInt8)] = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0),
                                                (191, 0, 191), (191, 0, 0), (0, 0, 191), (16, 16, 16)]

    /// BT.601 limited-range Y'CbCr of an RGB colour.
    static func yuv(_ c: (UInt8, UInt8, UInt8)) -> (UInt8, UInt8, UInt8) {
        let r = Double(c.0), g = Double(c.1), b = Double(c.2)
        let y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
        let u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
        let v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
        return (UInt8(y.rounded()), UInt8(u.rounded()), UInt8(v.rounded()))
    }

    public func produce(output: NodeOutput) throws -> Bool {
        if frames > 0 && index >= frames { return false }
        var buffer = WritableBuffer(frame: format)
        buffer.pts = Int64(firstFrame + index)
        buffer.dts = Int64(firstFrame + index)
        buffer.duration = 1
        buffer.flags = .keyFrame
        draw(buffer.planes!, frame: firstFrame + index)
        index += 1
        try output.send(consume buffer)
        return true
    }

    private func draw(_ planes: FramePlanes, frame: Int) {
        let w = format.width, h = format.height
        let barsHeight = h * 3 / 4
        let shift = frame * 4
        for plane in 0..<planes.planeCount {
            let size = planes.planeSize(plane)
            let bpp = format.pixelFormat.bytesPerPixel(plane: plane)
            let sx = size.width == w ? 0 : 1
            let sy = size.height == h ? 0 : 1
            let barRows = barsHeight >> sy
            // bars row
            rowScratch[plane].withUnsafeMutableBufferPointer { row in
                for x in 0..<size.width {
                    let bar = (((x << sx) + shift) * 8 / max(1, w)) % 8
                    let c = TestSource.bars[bar]
                    write(c, plane: plane, to: row.baseAddress! + x * bpp)
                }
                for y in 0..<barRows { (planes.data(plane) + y * planes.stride(plane)).update(from: row.baseAddress!, count: size.width * bpp) }
                // grey ramp, moving with the frame
                for x in 0..<size.width {
                    let v = UInt8(truncatingIfNeeded: ((x << sx) * 255 / max(1, w - 1) + frame * 2) & 0xff)
                    write((v, v, v), plane: plane, to: row.baseAddress! + x * bpp)
                }
                for y in barRows..<size.height { (planes.data(plane) + y * planes.stride(plane)).update(from: row.baseAddress!, count: size.width * bpp) }
            }
        }
        drawCounter(planes, value: frame)
    }

    @inline(__always)
    private func write(_ rgb: (UInt8, UInt8, UInt8), plane: Int, to p: UnsafeMutablePointer<UInt8>) {
        switch format.pixelFormat {
        case .rgba: p[0] = rgb.0; p[1] = rgb.1; p[2] = rgb.2; p[3] = 255
        case .bgra: p[0] = rgb.2; p[1] = rgb.1; p[2] = rgb.0; p[3] = 255
        case .gray: p[0] = TestSource.yuv(rgb).0
        default:
            let c = TestSource.yuv(rgb)
            p[0] = plane == 0 ? c.0 : plane == 1 ? c.1 : c.2
        }
    }

    // 3x5 digit glyphs, one bit per cell, rows top to bottom.
    static let glyphs: [[UInt8]] = [
        [7, 5, 5, 5, 7], [2, 6, 2, 2, 7], [7, 1, 7, 4, 7], [7, 1, 7, 1, 7], [5, 5, 7, 1, 1],
        [7, 4, 7, 1, 7], [7, 4, 7, 5, 7], [7, 1, 1, 1, 1], [7, 5, 7, 5, 7], [7, 5, 7, 1, 7],
    ]

    /// Draws the frame number in white on black at the top left (luma, or RGB).
    private func drawCounter(_ planes: FramePlanes, value: Int) {
        let digits = Array(String(value))
        let cell = max(1, format.height / 60)
        let bpp = format.pixelFormat.bytesPerPixel(plane: 0)
        let white: UInt8 = format.pixelFormat.isRGB ? 255 : 235, black: UInt8 = format.pixelFormat.isRGB ? 0 : 16
        for (k, ch) in digits.enumerated() {
            let g = TestSource.glyphs[Int(String(ch))!]
            for gy in 0..<7 {
                for gx in 0..<5 {
                    let on = gy >= 1 && gy <= 5 && gx >= 1 && gx <= 3 && (g[gy - 1] >> (3 - gx)) & 1 == 1
                    let v = on ? white : black
                    for yy in 0..<cell {
                        let y = gy * cell + yy
                        guard y < format.height else { continue }
                        for xx in 0..<cell {
                            let x = (k * 5 + gx) * cell + xx
                            guard x < format.width else { continue }
                            let p = planes.data(0) + y * planes.stride(0) + x * bpp
                            if bpp == 4 { p[0] = v; p[1] = v; p[2] = v } else { p[0] = v }
                        }
                    }
                }
            }
        }
    }
}
