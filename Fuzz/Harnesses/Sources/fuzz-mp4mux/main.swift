import FuzzDriver
import Foundation
import MediaGraphCore
import MediaGraphMP4

/// The MP4 muxer fed packets whose timestamps, durations, sizes and payloads come from the
/// input, converted from a fuzzed time base the way the mp4 sink does (`MediaTime.rescale`).
/// Tracks are H.264 or HEVC (configuration given, or found in the first packet's own NAL units),
/// VP9 or AAC; the layout options (fast start, fragmented, co64, rotation, QuickTime) and chapters
/// come from the input too.
/// Every input ends with a complete file or an error, and never leaves a temporary file behind.
let directory: String = {
    var template = Array("\(NSTemporaryDirectory())/mediagraph-fuzz-mp4-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot create a temporary directory") }
    return String(cString: made)
}()
let outputPath = directory + "/out.mp4"

/// Bytes of the input, read front to back; zeros once it is exhausted.
struct InputBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    var isEmpty: Bool { at >= bytes.count }
    mutating func u8() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }
    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    mutating func i64() -> Int64 { Int64(bitPattern: UInt64(u32()) | UInt64(u32()) << 32) }
    mutating func take(_ n: Int) -> [UInt8] {
        let end = min(bytes.count, at + n)
        defer { at += n }
        return at < end ? Array(bytes[at..<end]) + [UInt8](repeating: 0x5A, count: n - (end - at)) : [UInt8](repeating: 0x5A, count: n)
    }
}

// A real baseline-profile SPS/PPS pair (64x48, from x264) for tracks whose configuration is given.
let h264 = H264Configuration(sps: [[0x67, 0x42, 0xC0, 0x0A, 0xDA, 0x11, 0xEC, 0x04, 0x40, 0x00, 0x00, 0x03, 0x00, 0x40, 0x00, 0x00, 0x0C, 0x83, 0xC4, 0x89, 0xA8]],
                             pps: [[0x68, 0xCE, 0x0F, 0xC8]])

struct TrackPlan {
    var id: MP4TrackID
    var timeBase: Rational
    var timescale: Int64
    var configuration: CodecConfiguration?
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMuxer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = InputBytes(bytes: UnsafeBufferPointer(start: data, count: size))
    let flags = input.u8()
    var options = MP4MuxerOptions(fastStart: flags & 1 != 0, fragmented: flags & 2 != 0,
                                  fragmentDuration: Double(1 + input.u8() % 8) / 4, rotation: Int(flags >> 3 & 3) * 90,
                                  forceCo64: flags & 4 != 0, chunkDuration: Double(1 + input.u8() % 8) / 4)
    // a QuickTime movie (never fragmented: the muxer refuses that), and chapters as a hostile file
    // could bring them (any times and time base, untitled, titles of any bytes)
    options.quickTime = flags & 0x40 != 0 && !options.fragmented
    if flags & 0x20 != 0 {
        options.chapters = (0..<Int(input.u8() % 4)).map { _ in
            let start = input.i64(), end = input.i64(), den = Int64(max(1, input.u32()))
            let length = Int(input.u8())
            return Chapter(start: start, end: end, timeBase: Rational(1, den),
                           title: length == 255 ? nil : String(decoding: input.take(length), as: UTF8.self))
        }
    }
    guard let muxer = try? MP4Muxer(path: outputPath, options: options) else { fatalError("cannot open \(outputPath)") }
    var tracks: [TrackPlan] = []
    for _ in 0..<(1 + Int(input.u8() % 2)) {
        let kind = input.u8() % 5
        let timescale = Int64(input.u32())
        let num = Int64(input.u32() % 100_000), den = Int64(max(1, input.u32()))
        let width = Int(input.u16()), height = Int(input.u16())
        let added: MP4TrackID?
        var configuration: CodecConfiguration?
        switch kind {
        case 0:
            configuration = .h264(h264)
            added = try? muxer.addVideoTrack(codec: .h264, width: width, height: height, timescale: timescale, configuration: configuration)
        case 1: added = try? muxer.addVideoTrack(codec: .h264, width: width, height: height, timescale: timescale)
        case 2: added = try? muxer.addVideoTrack(codec: .hevc, width: width, height: height, timescale: timescale)
        case 3:
            configuration = .vpx(VPXConfiguration(codec: .vp9))
            added = try? muxer.addVideoTrack(codec: .vp9, width: width, height: height, timescale: timescale, configuration: configuration)
        default:
            let rate = Int(input.u32() % 200_000)
            configuration = .aac(AACConfiguration(audioSpecificConfig: [0x12, 0x10], sampleRate: 44100, channels: 2))
            added = try? muxer.addAudioTrack(codec: .aac, sampleRate: rate, channels: 2, timescale: timescale == 0 ? nil : timescale,
                                             configuration: configuration)
        }
        guard let id = added else { break }
        tracks.append(TrackPlan(id: id, timeBase: Rational(num, den), timescale: timescale == 0 ? 44100 : timescale,
                                configuration: configuration))
    }
    var samples = 0
    while !input.isEmpty && samples < 256 && !tracks.isEmpty {
        samples += 1
        let t = tracks[Int(input.u8()) % tracks.count]
        let sampleFlags = input.u8()
        if sampleFlags & 0x80 != 0 { try? muxer.finishTrack(t.id); continue }
        let bytes = input.take(Int(input.u16() % 2048))
        let pts = input.i64()
        let dts = sampleFlags & 2 != 0 ? input.i64() : pts
        let duration = Int64(input.u32())
        // As the mp4 sink converts packet times into the track's timescale.
        guard let p = MediaTime.rescale(pts, timeBase: t.timeBase, to: t.timescale),
              let d = MediaTime.rescale(dts, timeBase: t.timeBase, to: t.timescale),
              let l = MediaTime.rescale(duration, timeBase: t.timeBase, to: t.timescale) else { continue }
        let sample = MP4Sample(data: bytes, pts: p, dts: d, duration: l, isSync: sampleFlags & 1 != 0,
                               configuration: sampleFlags & 4 != 0 ? t.configuration : nil)
        if (try? muxer.append(sample, to: t.id)) == nil { break }
    }
    let completed = (try? muxer.finish()) != nil
    muxer.cancel()
    // What is left: the output when the file completed, nothing otherwise (a fragmented file is
    // written in place and kept up to its last complete fragment); never a temporary file.
    let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let expected = completed || (options.fragmented && left == ["out.mp4"]) ? ["out.mp4"] : []
    if left.sorted() != expected {
        fatalError("muxer \(completed ? "completed" : "failed") and left \(left.sorted()) in \(directory), expected \(expected)")
    }
    try? FileManager.default.removeItem(atPath: outputPath)
    return 0
}

runLibFuzzer(fuzzMuxer)
