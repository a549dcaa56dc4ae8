import MediaGraphCore

/// Derives timestamps for HEVC access units in decode order from the picture order count
/// (ITU-T H.265 8.3.1) and a frame rate, like `H264AccessUnitTimer`. Key frames are IRAP
/// pictures (IDR, CRA, BLA). The frame rate is the caller's, else the SPS VUI timing.
public final class HEVCAccessUnitTimer: AccessUnitTimer {
    public private(set) var frameRate: Rational?
    private let requestedRate: Rational?
    public private(set) var timescale: Int64 = 0
    public private(set) var frameDuration: Int64 = 0
    public private(set) var configuration: HEVCConfiguration?
    public private(set) var width = 0
    public private(set) var height = 0

    private let requestedTimescale: Int64?
    private let path: String
    private var sets = ParameterSetCollector(codec: .hevc)
    private var spsByID: [UInt32: HEVCSequenceParameterSet] = [:]
    private var ppsByID: [UInt32: HEVCPictureParameterSet] = [:]
    private var order: PresentationOrder<PendingAccessUnit>?
    private var reorderDepth = 0
    /// Bytes of the access units pushed and not yet popped.
    private var pendingBytes = 0
    private var prevTid0Lsb: Int64 = 0
    private var prevTid0Msb: Int64 = 0
    private var first = true

    public init(frameRate: Rational? = nil, timescale: Int64? = nil, path: String = "hevc stream") {
        requestedRate = frameRate
        requestedTimescale = timescale
        self.path = path
    }

    public func push(_ au: AnnexBAccessUnit) throws {
        var poc: Int64?
        var isIRAP = false
        var resets = false
        for r in au.nalUnits {
            let nal = au.data[r]
            guard nal.count >= 2, let header = nal.first else { continue }
            let type = NALUnits.hevcType(header)
            do {
                switch type {
                case 32: sets.add(Array(nal))
                case 33:
                    let sps = try HEVCSequenceParameterSet(nal: nal)
                    spsByID[sps.id] = sps
                    sets.add(Array(nal))
                case 34:
                    let pps = try HEVCPictureParameterSet(nal: nal)
                    ppsByID[pps.id] = pps
                    sets.add(Array(nal))
                case 0...31 where poc == nil:
                    (poc, isIRAP, resets) = try pictureOrderCount(nal, type: type, offset: au.offset + Int64(r.lowerBound))
                default: break
                }
            } catch let e as H264SyntaxError {
                throw ElementaryStreamError(path: path, offset: au.offset + Int64(r.lowerBound), message: e.description)
            }
        }
        guard let poc else {
            throw ElementaryStreamError(path: path, offset: au.offset, message: "access unit has no coded slice")
        }
        configuration = sets.configuration.flatMap { if case .hevc(let c) = $0 { return c } else { return nil } }
        try order?.checkRoom(for: au, pendingBytes: pendingBytes, frameDuration: frameDuration, path: path)
        order?.push(PendingAccessUnit(unit: au, isKeyFrame: isIRAP), poc: poc, startsSequence: resets)
        pendingBytes += au.data.count
    }

    public func finish() { order?.finish() }

    public func pop() -> TimedAccessUnit? {
        guard let e = order?.pop(), let item = e.item, let position = e.presentationIndex else { return nil }
        pendingBytes -= item.unit.data.count
        // push checked that (pictures pushed) × frameDuration fits in 64 bits.
        return TimedAccessUnit(data: item.unit.data, pts: Int64(position) * frameDuration,
                               dts: Int64(e.decodeIndex - reorderDepth) * frameDuration, duration: frameDuration,
                               isKeyFrame: item.isKeyFrame, offset: item.unit.offset)
    }

    /// POC of the picture whose first slice segment is `nal`; whether it is IRAP and whether it
    /// starts a new coded video sequence.
    private func pictureOrderCount(_ nal: ArraySlice<UInt8>, type: UInt8, offset: Int64) throws -> (Int64, Bool, Bool) {
        let temporalID = Int(nal[nal.startIndex + 1] & 7) - 1
        var r = BitReader(NALUnits.rbsp(nal.dropFirst(2), limit: 32))
        do {
            guard try r.flag() else { throw H264SyntaxError("picture starts with a dependent slice segment") }
            let isIRAP = (16...23).contains(type)
            if isIRAP { try r.skip(1) }
            let ppsID = try r.ue()
            guard let pps = ppsByID[ppsID], let sps = spsByID[pps.spsID] else {
                throw H264SyntaxError("slice refers to picture parameter set \(ppsID), which the stream has not defined")
            }
            if order == nil {
                guard let rate = requestedRate ?? sps.vuiFrameRate else {
                    throw H264SyntaxError("the stream has no VUI timing information: give a frame rate")
                }
                frameRate = rate
                (timescale, frameDuration) = try FrameClock.ticks(rate: rate, timescale: requestedTimescale, path: path, offset: offset)
                reorderDepth = Int(sps.maxNumReorderPics)
                order = PresentationOrder(reorderDepth: reorderDepth)
                width = sps.width
                height = sps.height
            }
            try r.skip(pps.numExtraSliceHeaderBits)
            _ = try r.ue() // slice_type
            if pps.outputFlagPresent { try r.skip(1) }
            if sps.separateColourPlane { try r.skip(2) }
            let isIDR = type == 19 || type == 20
            let lsb = isIDR ? 0 : Int64(try r.bits(Int(sps.log2MaxPicOrderCntLsb)))
            let noRaslOutput = isIDR || (16...18).contains(type) || (type == 21 && first)
            first = false
            var msb: Int64 = 0
            if !noRaslOutput {
                let maxLsb = Int64(1) << Int64(sps.log2MaxPicOrderCntLsb)
                msb = prevTid0Msb
                if lsb < prevTid0Lsb && prevTid0Lsb - lsb >= maxLsb / 2 { msb += maxLsb }
                else if lsb > prevTid0Lsb && lsb - prevTid0Lsb > maxLsb / 2 { msb -= maxLsb }
            }
            let subLayerNonReference = type <= 14 && type % 2 == 0
            let leading = (6...9).contains(type)
            if temporalID == 0 && !subLayerNonReference && !leading {
                prevTid0Lsb = lsb
                prevTid0Msb = msb
            }
            // msb moves by at most 2^16 per picture: far from overflowing 64 bits.
            guard Int64(Int32.min)...Int64(Int32.max) ~= msb + lsb else {
                throw H264SyntaxError("picture order count \(msb + lsb) leaves the 32-bit range of ITU-T H.265 8.3.1")
            }
            return (msb + lsb, isIRAP, noRaslOutput)
        } catch is BitReader.EndOfData {
            throw H264SyntaxError("slice segment header ends early")
        }
    }
}

/// An HEVC Annex B file as timed access units (what an hevcsrc node would read).
public typealias HEVCStreamReader = TimedAnnexBReader<HEVCAccessUnitTimer>

extension TimedAnnexBReader where Timer == HEVCAccessUnitTimer {
    public convenience init(path: String, frameRate: Rational? = nil, timescale: Int64? = nil) throws {
        self.init(reader: try AnnexBReader(path: path, codec: .hevc),
                  timer: HEVCAccessUnitTimer(frameRate: frameRate, timescale: timescale, path: path))
    }

    /// An HEVC Annex B stream held in memory (`name` stands for the file in errors): the same
    /// reader and timer as for files, the entry point for fuzzing.
    public convenience init(bytes: [UInt8], name: String = "memory", frameRate: Rational? = nil, timescale: Int64? = nil) throws {
        self.init(reader: try AnnexBReader(bytes: bytes, codec: .hevc, name: name),
                  timer: HEVCAccessUnitTimer(frameRate: frameRate, timescale: timescale, path: name))
    }
}
