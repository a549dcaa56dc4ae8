import Foundation
import MediaGraphCore

/// A stream's packets as ffprobe reads them from a file (`-show_packets -show_data`): an
/// independent demuxer for tests, so the muxer gets exactly the packets ffmpeg's own `-c copy`
/// gets.
struct ProbedStream {
    struct Packet {
        var data: [UInt8]
        var pts: Int64
        var dts: Int64
        var duration: Int64
        var isKey: Bool
    }

    var codec: String
    var timeBase: Rational
    var startTime: Double
    var extradata: [UInt8]
    var width = 0, height = 0, sampleRate = 0, channels = 0
    var packets: [Packet]
    /// Samples the first packet says to drop (its "Skip Samples" side data: an MP3 encoder's
    /// delay from the LAME header, Opus pre-skip from Matroska).
    var skipSamples = 0

    /// Reads stream `select` (ffprobe's stream specifier, e.g. "a:0") of `path`.
    init(_ path: String, select: String) throws {
        let s = try ffprobe(path, ["-select_streams", select, "-show_streams", "-show_data"])
        guard let stream = (s["streams"] as? [[String: Any]])?.first else { throw TestFailure("no stream \(select) in \(path)") }
        codec = stream["codec_name"] as? String ?? ""
        let tb = (stream["time_base"] as? String ?? "1/1").split(separator: "/").compactMap { Int64($0) }
        timeBase = tb.count == 2 ? Rational(tb[0], tb[1]) : Rational(1, 1)
        startTime = doubleValue(stream["start_time"]) ?? 0
        extradata = Self.hexdump(stream["extradata"] as? String ?? "")
        width = intValue(stream["width"]) ?? 0
        height = intValue(stream["height"]) ?? 0
        sampleRate = intValue(stream["sample_rate"]) ?? 0
        channels = intValue(stream["channels"]) ?? 0
        let p = try ffprobe(path, ["-select_streams", select, "-show_packets", "-show_data"])
        let list = p["packets"] as? [[String: Any]] ?? []
        let side = list.first?["side_data_list"] as? [[String: Any]] ?? []
        skipSamples = side.compactMap { intValue($0["skip_samples"]) }.first ?? 0
        packets = list.map { j in
            let pts = Int64(intValue(j["pts"]) ?? 0)
            return Packet(data: Self.hexdump(j["data"] as? String ?? ""), pts: pts, dts: Int64(intValue(j["dts"]) ?? Int(pts)),
                          duration: Int64(intValue(j["duration"]) ?? 0), isKey: (j["flags"] as? String ?? "").hasPrefix("K"))
        }
    }

    /// Shifts every timestamp by `seconds` (in the stream's time base), as ffmpeg rebases a file
    /// by its start time.
    mutating func shift(by seconds: Double) {
        let ticks = Int64((seconds * Double(timeBase.den) / Double(timeBase.num)).rounded())
        for i in packets.indices { packets[i].pts += ticks; packets[i].dts += ticks }
    }

    /// Takes each packet's duration from the stts of track `track` (0-based) of the MP4 it was
    /// read from: ffprobe reports the last AAC packet as a whole frame even where stts (and so
    /// ffmpeg's copy) has it shorter.
    mutating func takeDurations(fromSTTSOf path: String, track: Int) throws {
        let all = try BoxTree(path).all("moov.trak.mdia.minf.stbl.stts")
        guard track < all.count else { throw TestFailure("no track \(track) in \(path)") }
        let b = all[track]
        func u32(_ i: Int) -> Int64 { Int64(b[i]) << 24 | Int64(b[i + 1]) << 16 | Int64(b[i + 2]) << 8 | Int64(b[i + 3]) }
        var durations: [Int64] = []
        for e in 0..<Int(u32(4)) { durations += Array(repeating: u32(12 + 8 * e), count: Int(u32(8 + 8 * e))) }
        guard durations.count == packets.count else { throw TestFailure("stts of \(path) has \(durations.count) samples, ffprobe \(packets.count)") }
        for i in packets.indices { packets[i].duration = durations[i] }
    }

    /// The bytes of an ffprobe hex dump ("00000000: 4f70 7573 …  OpusHead").
    static func hexdump(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        for line in text.split(separator: "\n") {
            let chars = Array(line)
            guard chars.count > 10, chars[8] == ":" else { continue }
            let hex = String(chars[10..<min(chars.count, 49)]).replacingOccurrences(of: " ", with: "")
            var i = hex.startIndex
            while let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex), i < hex.endIndex {
                if let b = UInt8(hex[i..<j], radix: 16) { out.append(b) }
                i = j
            }
        }
        return out
    }

    /// OpusHead (RFC 7845 5.1, little-endian) as an OpusConfiguration.
    var opusConfiguration: OpusConfiguration? {
        let h = extradata
        guard h.count >= 19, Array(h[0..<8]) == Array("OpusHead".utf8) else { return nil }
        let family = h[18]
        var c = OpusConfiguration(channels: Int(h[9]), preSkip: Int(h[10]) | Int(h[11]) << 8,
                                  inputSampleRate: Int(h[12]) | Int(h[13]) << 8 | Int(h[14]) << 16 | Int(h[15]) << 24,
                                  outputGain: Int16(bitPattern: UInt16(h[16]) | UInt16(h[17]) << 8), mappingFamily: family)
        if family != 0, h.count >= 21 + Int(h[9]) {
            c.streamCount = h[19]
            c.coupledCount = h[20]
            c.channelMapping = Array(h[21..<(21 + Int(h[9]))])
        }
        return c
    }

    /// avcC (ISO/IEC 14496-15 5.3.3.1) as an H264Configuration, length-prefixed framing.
    var avcConfiguration: H264Configuration? {
        let a = extradata
        guard a.count >= 7, a[0] == 1 else { return nil }
        var i = 6, sps: [[UInt8]] = [], pps: [[UInt8]] = []
        for _ in 0..<Int(a[5] & 0x1F) {
            let n = Int(a[i]) << 8 | Int(a[i + 1]); sps.append(Array(a[(i + 2)..<(i + 2 + n)])); i += 2 + n
        }
        let count = Int(a[i]); i += 1
        for _ in 0..<count {
            let n = Int(a[i]) << 8 | Int(a[i + 1]); pps.append(Array(a[(i + 2)..<(i + 2 + n)])); i += 2 + n
        }
        var c = H264Configuration(sps: sps, pps: pps)
        c.framing = .lengthPrefixed(Int(a[4] & 3) + 1)
        return c
    }
}

/// The boxes of an MP4 file, depth first, with their payloads: a small reader for comparing our
/// files with ffmpeg's box by box.
struct BoxTree {
    struct Box { var path: String; var payload: [UInt8] }
    var boxes: [Box] = []

    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "mvex", "udta"]
    /// Sample entries: bytes of fixed fields before their child boxes.
    static let entries: [String: Int] = ["avc1": 78, "hvc1": 78, "vp09": 78, "vp08": 78, "mp4a": 28, "Opus": 28]

    init(_ path: String) throws {
        let d = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        walk(d, 0, d.count, "")
    }

    private mutating func walk(_ d: [UInt8], _ start: Int, _ end: Int, _ parent: String) {
        var i = start
        while i + 8 <= end {
            var size = Int(d[i]) << 24 | Int(d[i + 1]) << 16 | Int(d[i + 2]) << 8 | Int(d[i + 3])
            var header = 8
            if size == 1, i + 16 <= end { size = (0..<8).reduce(0) { $0 << 8 | Int(d[i + 8 + $1]) }; header = 16 }
            if size == 0 { size = end - i }
            guard size >= header, i + size <= end else { return }
            let type = String(decoding: d[(i + 4)..<(i + 8)], as: UTF8.self)
            let path = parent.isEmpty ? type : parent + "." + type
            let body = Array(d[(i + header)..<(i + size)])
            if type == "stsd" {
                boxes.append(Box(path: path, payload: Array(body.prefix(8))))
                walk(d, i + header + 8, i + size, path)
            } else if let fixed = Self.entries[type] {
                boxes.append(Box(path: path, payload: Array(body.prefix(fixed))))
                walk(d, i + header + fixed, i + size, path)
            } else if Self.containers.contains(type) {
                boxes.append(Box(path: path, payload: []))
                walk(d, i + header, i + size, path)
            } else {
                boxes.append(Box(path: path, payload: type == "mdat" ? [] : body))
            }
            i += size
        }
    }

    /// The payload of the first box at `path` ("moov.trak.mdia.mdhd"), nil when there is none.
    func first(_ path: String) -> [UInt8]? { boxes.first { $0.path == path }?.payload }
    /// Payloads of every box at `path`, in file order (one per track).
    func all(_ path: String) -> [[UInt8]] { boxes.filter { $0.path == path }.map(\.payload) }
    func has(_ path: String) -> Bool { boxes.contains { $0.path == path } }
}

extension Array where Element == UInt8 {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
