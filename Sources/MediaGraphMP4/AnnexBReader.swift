import MediaGraphCore

/// One access unit (all NAL units of one picture) of an Annex B stream.
public struct AnnexBAccessUnit: Sendable {
    /// The access unit's bytes as in the file, start codes included.
    public var data: [UInt8]
    /// Byte offset of `data` in the file.
    public var offset: Int64
    /// NAL units within `data` (header byte included, start codes excluded).
    public var nalUnits: [Range<Int>]
}

/// Splits an H.264 or HEVC Annex B byte stream file into access units, reading it through a
/// window of a few megabytes (memory does not grow with the file).
///
/// A new access unit starts at an access unit delimiter, at a parameter set or SEI that follows
/// a picture's slices, or at the first slice of a new picture (first_mb_in_slice = 0 /
/// first_slice_segment_in_pic_flag), as ITU-T H.264 7.4.1.2.3 and H.265 7.4.2.4.4 describe.
public final class AnnexBReader {
    public let path: String
    public let codec: Codec
    private let file: InputFile
    /// Buffer index of the current access unit's first start code.
    private var auStart = 0
    private var auNALs: [Range<Int>] = []
    private var auHasPicture = false
    /// Buffer index where the NAL being scanned starts (after its start code), and its code.
    private var nalPayload = -1
    private var nalCodeStart = 0
    private var searchFrom = 0
    private var finished = false
    private var lastUnit: AnnexBAccessUnit?
    /// Largest access unit accepted; a file with no start codes fails instead of filling memory.
    public var maxAccessUnitSize = MediaLimits.maxAccessUnitSize

    public init(path: String, codec: Codec) throws {
        try Self.check(codec, path)
        self.path = path
        self.codec = codec
        file = try InputFile(path: path, capacity: 4 << 20)
    }

    /// Reads an Annex B stream held in memory; `name` stands for the file in error messages.
    /// (The same parser as for files: the entry point for fuzzing.)
    public init(bytes: [UInt8], codec: Codec, name: String = "memory") throws {
        try Self.check(codec, name)
        path = name
        self.codec = codec
        file = InputFile(bytes: bytes, name: name, capacity: 4 << 20)
    }

    private static func check(_ codec: Codec, _ path: String) throws {
        guard codec == .h264 || codec == .hevc else {
            throw ElementaryStreamError(path: path, offset: 0, message: "Annex B streams are H.264 or HEVC, not \(codec)")
        }
    }

    /// The next access unit, or nil at the end of the file.
    public func next() throws -> AnnexBAccessUnit? {
        if finished { defer { lastUnit = nil }; return lastUnit }
        if nalPayload < 0 { try findFirstStartCode() }
        while true {
            let end = file.count
            if let code = NALUnits.nextStartCode(file.buffer, from: max(searchFrom, nalPayload), end: end) {
                searchFrom = code.payload
                let au = try completeNAL(end: code.codeStart, nextCodeStart: code.codeStart)
                nalPayload = code.payload
                nalCodeStart = code.codeStart
                if let au { return au }
                continue
            }
            // No further start code in the window: read more, keeping the current access unit.
            searchFrom = max(nalPayload, end - 3)
            if file.count - auStart > maxAccessUnitSize {
                throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(auStart),
                                            message: "access unit longer than the limit of \(maxAccessUnitSize) bytes (no start code, or no new picture, within it): not an Annex B stream?")
            }
            let shift = auStart
            let more = try file.refill(keepFrom: shift)
            auStart = 0
            nalPayload -= shift
            nalCodeStart -= shift
            searchFrom = max(0, searchFrom - shift)
            if !more {
                // End of file: the last NAL runs to the end.
                finished = true
                let last = try completeNAL(end: file.count, nextCodeStart: file.count)
                let rest = emit(upTo: file.count)
                if let last { lastUnit = rest; return last }
                return rest
            }
        }
    }

    private func findFirstStartCode() throws {
        // leading_zero_8bits may come before the first start code.
        var zeros = 0
        while true {
            guard let at = try file.ensure(zeros + 1, from: 0) else {
                throw ElementaryStreamError(path: path, offset: Int64(zeros), message: "file ends before the first start code (expected 00 00 01)")
            }
            if file.buffer[at + zeros] != 0 { break }
            zeros += 1
            if zeros > 1 << 16 {
                throw ElementaryStreamError(path: path, offset: 0, message: "more than 65536 zero bytes before the first start code")
            }
        }
        let p = file.buffer
        guard zeros >= 2, p[zeros] == 1 else {
            let shown = (0..<min(4, file.count)).map { String(format: "%02x", p[$0]) }.joined(separator: " ")
            throw ElementaryStreamError(path: path, offset: 0,
                                        message: "expected a start code (00 00 01 or 00 00 00 01), found \(shown)")
        }
        auStart = zeros >= 3 ? zeros - 3 : zeros - 2
        nalCodeStart = auStart
        nalPayload = zeros + 1
        searchFrom = nalPayload
    }

    /// The NAL from `nalPayload` to `end` is complete: add it to the current access unit, or
    /// emit that unit first if this NAL starts a new one.
    private func completeNAL(end: Int, nextCodeStart: Int) throws -> AnnexBAccessUnit? {
        var stop = end
        let p = file.buffer
        while stop > nalPayload && p[stop - 1] == 0 { stop -= 1 }
        if stop <= nalPayload { return nil } // empty NAL (stray zeros)
        let header = p[nalPayload]
        if header & 0x80 != 0 {
            throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(nalPayload),
                                        message: String(format: "NAL unit header %02x has forbidden_zero_bit set: corrupt stream", header))
        }
        let size = stop - nalPayload
        var startsNew = false
        var isPicture = false
        if codec == .h264 {
            let t = NALUnits.h264Type(header)
            switch t {
            case 1...5:
                isPicture = true
                startsNew = auHasPicture && size > 1 && p[nalPayload + 1] & 0x80 != 0
            case 9: startsNew = !auNALs.isEmpty
            case 6, 7, 8, 14...18: startsNew = auHasPicture
            default: break
            }
        } else {
            guard size >= 2 else {
                throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(nalPayload),
                                            message: "HEVC NAL unit shorter than its 2-byte header")
            }
            let t = NALUnits.hevcType(header)
            switch t {
            case 0...31:
                isPicture = true
                startsNew = auHasPicture && size > 2 && p[nalPayload + 2] & 0x80 != 0
            case 35: startsNew = !auNALs.isEmpty
            case 32, 33, 34, 39, 41...44, 48...55: startsNew = auHasPicture
            default: break
            }
        }
        var out: AnnexBAccessUnit?
        if startsNew { out = emit(upTo: nalCodeStart) }
        guard auNALs.count < MediaLimits.maxNALUnitsPerAccessUnit else {
            throw ElementaryStreamError(path: path, offset: file.bufferOffset + Int64(auStart),
                                        message: "access unit has more than \(MediaLimits.maxNALUnitsPerAccessUnit) NAL units (the limit)")
        }
        auNALs.append((nalPayload - auStart)..<(stop - auStart))
        if isPicture { auHasPicture = true }
        return out
    }

    /// Returns the access unit [auStart, end) and starts the next one at `end`.
    private func emit(upTo end: Int) -> AnnexBAccessUnit? {
        defer {
            auStart = end
            auNALs.removeAll(keepingCapacity: true)
            auHasPicture = false
        }
        guard !auNALs.isEmpty, end > auStart else { return nil }
        let data = Array(UnsafeBufferPointer(start: file.buffer + auStart, count: end - auStart))
        return AnnexBAccessUnit(data: data, offset: file.bufferOffset + Int64(auStart), nalUnits: auNALs)
    }
}

import Foundation
