import MediaGraphCore

/// An access unit with the timestamps a muxer needs, in `timescale` ticks.
public struct TimedAccessUnit: Sendable {
    public var data: [UInt8]
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var isKeyFrame: Bool
    /// Byte offset in the source file.
    public var offset: Int64
}

/// Derives timestamps for H.264 access units in decode order, as a decoder would: the picture
/// order count (POC types 0, 1 and 2, ITU-T H.264 8.2.1) gives presentation order, the frame
/// rate (VUI timing or the caller's) gives the spacing. pts = presentation position × frame
/// duration; dts = (decode position − reorder depth) × frame duration, so dts ≤ pts.
/// Key frames are IDR pictures and I pictures with a recovery point SEI. Also collects the SPS/PPS as an `H264Configuration`.
///
/// Limits: frame (not field) pictures; memory_management_control_operation 5 is not detected
/// (x264 and libavcodec do not write it).
public final class H264AccessUnitTimer {
    /// Frame rate in use (the caller's, else the stream's VUI timing).
    public private(set) var frameRate: Rational?
    /// Ticks per second of the output timestamps.
    public private(set) var timescale: Int64 = 0
    public private(set) var frameDuration: Int64 = 0
    public private(set) var configuration: H264Configuration?
    public private(set) var width = 0
    public private(set) var height = 0

    private let requestedRate: Rational?
    private let requestedTimescale: Int64?
    private var sets = ParameterSetCollector(codec: .h264)
    private var spsByID: [UInt32: H264SequenceParameterSet] = [:]
    private var ppsByID: [UInt32: H264PictureParameterSet] = [:]
    private var order: PresentationOrder<PendingAccessUnit>?
    private var reorderDepth = 0
    /// Bytes of the access units pushed and not yet popped.
    private var pendingBytes = 0
    private let path: String
    // POC state (8.2.1)
    private var prevPocMsb: Int64 = 0
    private var prevPocLsb: Int64 = 0
    private var prevFrameNumOffset: Int64 = 0
    private var prevFrameNum: Int64 = 0

    /// - Parameters:
    ///   - frameRate: overrides the stream's VUI timing (required when the stream has none).
    ///   - timescale: ticks per second of the output; by default the frame rate's numerator
    ///     doubled until ≥ 10000 (25 fps → 12800, as ffmpeg's MP4 muxer chooses).
    ///   - path: the file name used in error messages.
    public init(frameRate: Rational? = nil, timescale: Int64? = nil, path: String = "h264 stream") {
        requestedRate = frameRate
        requestedTimescale = timescale
        self.path = path
    }

    /// Takes the next access unit in decode order.
    public func push(_ au: AnnexBAccessUnit) throws {
        var firstSlice: H264SliceHeader?
        var nalRefIDC: UInt8 = 0
        var isIDR = false
        var hasRecoveryPoint = false
        for r in au.nalUnits {
            let nal = au.data[r]
            guard let header = nal.first else { continue }
            let type = NALUnits.h264Type(header)
            do {
                switch type {
                case 7:
                    let sps = try H264SequenceParameterSet(nal: nal)
                    spsByID[sps.id] = sps
                    sets.add(Array(nal))
                case 8:
                    let pps = try H264PictureParameterSet(nal: nal)
                    ppsByID[pps.id] = pps
                    sets.add(Array(nal))
                case 6:
                    if Self.hasRecoveryPoint(nal) { hasRecoveryPoint = true }
                case 1, 5:
                    if firstSlice != nil { break }
                    firstSlice = try H264SliceHeader(nal: nal) { id in
                        guard let p = self.ppsByID[id], let s = self.spsByID[p.spsID] else { return nil }
                        return (s, p)
                    }
                    nalRefIDC = (header >> 5) & 3
                    isIDR = type == 5
                default: break
                }
            } catch let e as H264SyntaxError {
                throw ElementaryStreamError(path: path, offset: au.offset + Int64(r.lowerBound), message: e.description)
            }
        }
        guard let slice = firstSlice, let pps = ppsByID[slice.ppsID], let sps = spsByID[pps.spsID] else {
            throw ElementaryStreamError(path: path, offset: au.offset, message: "access unit has no coded picture slice")
        }
        if slice.fieldPic {
            throw ElementaryStreamError(path: path, offset: au.offset, message: "field-coded pictures are not supported (frames only)")
        }
        if order == nil { try start(with: sps, at: au.offset) }
        configuration = sets.configuration.flatMap { if case .h264(let c) = $0 { return c } else { return nil } }
        guard let poc = pictureOrderCount(slice, sps: sps, nalRefIDC: nalRefIDC, isIDR: isIDR) else {
            throw ElementaryStreamError(path: path, offset: au.offset,
                                        message: "picture order count leaves the 32-bit range of ITU-T H.264 8.2.1")
        }
        try order?.checkRoom(for: au, pendingBytes: pendingBytes, frameDuration: frameDuration, path: path)
        // An I picture with a recovery point SEI (x264's open-GOP key frames) is a key frame
        // too, as encoders and ffmpeg flag it.
        let key = isIDR || (hasRecoveryPoint && slice.sliceType % 5 == 2)
        order?.push(PendingAccessUnit(unit: au, isKeyFrame: key), poc: poc, startsSequence: isIDR)
        pendingBytes += au.data.count
    }

    /// End of stream: the remaining access units get their times.
    public func finish() { order?.finish() }

    /// The next access unit in decode order whose timestamps are known.
    public func pop() -> TimedAccessUnit? {
        guard let e = order?.pop(), let item = e.item, let position = e.presentationIndex else { return nil }
        pendingBytes -= item.unit.data.count
        // push checked that (pictures pushed) × frameDuration fits in 64 bits.
        let pts = Int64(position) * frameDuration
        let dts = Int64(e.decodeIndex - reorderDepth) * frameDuration
        return TimedAccessUnit(data: item.unit.data, pts: pts, dts: dts, duration: frameDuration,
                               isKeyFrame: item.isKeyFrame, offset: item.unit.offset)
    }

    /// Whether an SEI NAL unit carries a recovery point message (payload type 6).
    static func hasRecoveryPoint(_ nal: ArraySlice<UInt8>) -> Bool {
        let rbsp = NALUnits.rbsp(nal.dropFirst(), limit: 4096)
        var i = 0
        while i < rbsp.count && rbsp[i] != 0x80 { // 0x80: rbsp_trailing_bits
            var type = 0, size = 0
            while i < rbsp.count && rbsp[i] == 0xFF { type += 255; i += 1 }
            guard i < rbsp.count else { return false }
            type += Int(rbsp[i]); i += 1
            while i < rbsp.count && rbsp[i] == 0xFF { size += 255; i += 1 }
            guard i < rbsp.count else { return false }
            size += Int(rbsp[i]); i += 1
            if type == 6 { return true }
            i += size
        }
        return false
    }

    private func start(with sps: H264SequenceParameterSet, at offset: Int64) throws {
        guard let rate = requestedRate ?? sps.vuiFrameRate, rate.num > 0 else {
            throw ElementaryStreamError(path: path, offset: offset,
                                        message: "the stream has no VUI timing information: give a frame rate")
        }
        frameRate = rate
        (timescale, frameDuration) = try FrameClock.ticks(rate: rate, timescale: requestedTimescale, path: path, offset: offset)
        width = sps.width
        height = sps.height
        // A decoder may hold up to 16 frames; without a bitstream restriction that bound is safe.
        // POC type 2 means output order is decode order; otherwise, without a bitstream
        // restriction, 16 frames (the largest DPB) is a safe bound.
        let inOrder = sps.picOrderCntType == 2 || sps.profileIDC == 66
        reorderDepth = Int(sps.maxNumReorderFrames ?? (inOrder ? 0 : 16))
        order = PresentationOrder(reorderDepth: reorderDepth)
    }

    /// The picture order count (8.2.1), or nil when it leaves the 32-bit range the standard
    /// requires (a hostile stream could otherwise overflow the 64-bit sums below).
    private func pictureOrderCount(_ s: H264SliceHeader, sps: H264SequenceParameterSet, nalRefIDC: UInt8, isIDR: Bool) -> Int64? {
        let frameNum = Int64(s.frameNum)
        let maxFrameNum = Int64(1) << Int64(sps.log2MaxFrameNum)
        let poc: Int64
        switch sps.picOrderCntType {
        case 0:
            if isIDR { prevPocMsb = 0; prevPocLsb = 0 }
            let maxLsb = Int64(1) << Int64(sps.log2MaxPicOrderCntLsb)
            let lsb = Int64(s.picOrderCntLsb)
            var msb = prevPocMsb
            if lsb < prevPocLsb && prevPocLsb - lsb >= maxLsb / 2 { msb = prevPocMsb + maxLsb }
            else if lsb > prevPocLsb && lsb - prevPocLsb > maxLsb / 2 { msb = prevPocMsb - maxLsb }
            let top = msb + lsb
            let bottom = top + Int64(s.deltaPicOrderCntBottom)
            if nalRefIDC != 0 { prevPocMsb = msb; prevPocLsb = lsb }
            guard Self.fits32(top), Self.fits32(bottom) else { return nil }
            poc = min(top, bottom)
        case 1:
            let offset = isIDR ? 0 : (prevFrameNum > frameNum ? prevFrameNumOffset + maxFrameNum : prevFrameNumOffset)
            let cycle = Int64(sps.offsetForRefFrame.count)
            var abs = cycle != 0 ? offset + frameNum : 0
            if nalRefIDC == 0 && abs > 0 { abs -= 1 }
            var expected: Int64 = 0
            if abs > 0 {
                // ≤ 255 terms of ±2^31: no overflow; the product with the cycle count may.
                let deltaPerCycle = sps.offsetForRefFrame.reduce(Int64(0)) { $0 + Int64($1) }
                let cycleCount = (abs - 1) / cycle
                let inCycle = Int((abs - 1) % cycle)
                let (product, overflow) = cycleCount.multipliedReportingOverflow(by: deltaPerCycle)
                // Beyond 2^48 the 255 terms below cannot bring it back into 32 bits.
                if overflow || product.magnitude > 1 << 48 { return nil }
                expected = product
                for i in 0...inCycle { expected += Int64(sps.offsetForRefFrame[i]) }
            }
            if nalRefIDC == 0 { expected += Int64(sps.offsetForNonRefPic) }
            let top = expected + Int64(s.deltaPicOrderCnt0)
            let bottom = top + Int64(sps.offsetForTopToBottomField) + Int64(s.deltaPicOrderCnt1)
            prevFrameNumOffset = offset
            prevFrameNum = frameNum
            guard Self.fits32(top), Self.fits32(bottom) else { return nil }
            poc = min(top, bottom)
        default:
            let offset = isIDR ? 0 : (prevFrameNum > frameNum ? prevFrameNumOffset + maxFrameNum : prevFrameNumOffset)
            poc = isIDR ? 0 : (nalRefIDC == 0 ? 2 * (offset + frameNum) - 1 : 2 * (offset + frameNum))
            prevFrameNumOffset = offset
            prevFrameNum = frameNum
        }
        // prevPocMsb and the frame num offsets grow by at most 2^16 per picture: far from
        // overflowing 64 bits in any file.
        return Self.fits32(poc) ? poc : nil
    }

    private static func fits32(_ v: Int64) -> Bool { Int64(Int32.min)...Int64(Int32.max) ~= v }
}

/// Something that times access units given in decode order (H.264 or HEVC).
public protocol AccessUnitTimer: AnyObject {
    func push(_ au: AnnexBAccessUnit) throws
    func finish()
    func pop() -> TimedAccessUnit?
}

extension H264AccessUnitTimer: AccessUnitTimer {}

/// Reads an Annex B file as timed access units: `AnnexBReader` + an `AccessUnitTimer`.
public final class TimedAnnexBReader<Timer: AccessUnitTimer> {
    public let reader: AnnexBReader
    public let timer: Timer
    private var ended = false

    public init(reader: AnnexBReader, timer: Timer) {
        self.reader = reader
        self.timer = timer
    }

    /// The next access unit in decode order with its pts/dts, or nil at the end of the file.
    public func next() throws -> TimedAccessUnit? {
        while true {
            if let t = timer.pop() { return t }
            if ended { return nil }
            if let au = try reader.next() {
                try timer.push(au)
            } else {
                ended = true
                timer.finish()
            }
        }
    }
}

/// An H.264 Annex B file as timed access units (what the h264src node reads).
public typealias H264StreamReader = TimedAnnexBReader<H264AccessUnitTimer>

extension TimedAnnexBReader where Timer == H264AccessUnitTimer {
    /// - Parameters:
    ///   - frameRate: overrides the stream's VUI timing.
    ///   - timescale: ticks per second of the timestamps (default: see `H264AccessUnitTimer`).
    public convenience init(path: String, frameRate: Rational? = nil, timescale: Int64? = nil) throws {
        self.init(reader: try AnnexBReader(path: path, codec: .h264),
                  timer: H264AccessUnitTimer(frameRate: frameRate, timescale: timescale, path: path))
    }

    /// An H.264 Annex B stream held in memory (`name` stands for the file in errors): the same
    /// reader and timer as for files, the entry point for fuzzing.
    public convenience init(bytes: [UInt8], name: String = "memory", frameRate: Rational? = nil, timescale: Int64? = nil) throws {
        self.init(reader: try AnnexBReader(bytes: bytes, codec: .h264, name: name),
                  timer: H264AccessUnitTimer(frameRate: frameRate, timescale: timescale, path: name))
    }
}
