import MediaGraphCore
import MediaGraphMP4

/// A packet waiting to be written, its times already in milliseconds.
struct QueuedPacket {
    var data: PacketBytes
    var pts: Int64
    var dts: Int64
    var duration: Int64
    var isKeyFrame: Bool
    /// Nanoseconds.
    var discardPadding: Int64
    /// 0-based number within its track, for error messages.
    var number: Int
    /// A WebVTT cue's identifier and settings.
    var webVTT: WebVTTCueExtras?
}

extension MatroskaMuxer {
    /// One track: its description, configuration and queue.
    final class Track {
        let description: MatroskaTrackDescription
        let number: Int
        let name: String
        var configuration: CodecConfiguration?
        var codecPrivate: [UInt8] = []
        /// Opus pre-skip: CodecDelay in nanoseconds, and in milliseconds what blocks add to their
        /// presentation times (a reader subtracts it again).
        var codecDelayNanoseconds: UInt64 = 0
        var codecDelay: Int64 = 0
        var received = 0
        var lastDTS: Int64?
        var ended = false
        private var queue: [QueuedPacket] = []
        private var headIndex = 0

        init(_ d: MatroskaTrackDescription, number: Int, name: String) {
            description = d
            self.number = number
            self.name = name
        }

        func configure(_ c: CodecConfiguration) throws {
            guard let record = MatroskaCodecs.codecPrivate(c, codec: description.codec) else {
                throw MatroskaMuxerError.configurationMismatch(track: name, expected: "a complete \(description.codec) configuration",
                                                               found: Self.describe(c))
            }
            configuration = c
            codecPrivate = record
            if case .opus(let o) = c {
                // as ffmpeg: the pre-skip at 48 kHz in ns, and rounded to the blocks' milliseconds
                codecDelayNanoseconds = UInt64(MediaTime.rescale(Int64(o.preSkip), timeBase: Rational(1, 48000), to: 1_000_000_000) ?? 0)
                codecDelay = MediaTime.rescale(Int64(o.preSkip), timeBase: Rational(1, 48000), to: 1000) ?? 0
            }
        }

        /// Parameter sets inside an Annex B packet (producers that do not pass them); VP8/VP9
        /// need no configuration at all.
        static func inBandConfiguration(_ data: PacketBytes, codec: Codec) -> CodecConfiguration? {
            if codec == .vp8 || codec == .vp9 { return .vpx(VPXConfiguration(codec: codec)) }
            guard codec == .h264 || codec == .hevc else { return nil }
            return CodecConfigurationRecords.annexBParameterSets(data.array, codec: codec)
        }

        static func describe(_ c: CodecConfiguration) -> String {
            switch c {
            case .h264(let h): return "h264 with \(h.sps.count) SPS, \(h.pps.count) PPS"
            case .hevc(let h): return "hevc with \(h.vps.count) VPS, \(h.sps.count) SPS, \(h.pps.count) PPS"
            case .vpx(let v): return "\(v.codec)"
            case .aac(let a): return "aac with a \(a.audioSpecificConfig.count)-byte AudioSpecificConfig"
            case .opus(let o): return "opus with \(o.channels) channels, pre-skip \(o.preSkip)"
            case .mp3: return "mp3"
            case .other(let codec, let extradata): return "\(codec) with \(extradata.count) bytes of codec-private data"
            }
        }

        /// How the packets delimit NAL units (H.264/HEVC), from the configuration.
        var framing: NALFraming {
            switch configuration {
            case .h264(let c)?: return c.framing
            case .hevc(let c)?: return c.framing
            default: return .annexB
            }
        }

        var hasQueued: Bool { headIndex < queue.count }
        var head: QueuedPacket { queue[headIndex] }
        /// The packets waiting, in decode order.
        var queued: ArraySlice<QueuedPacket> { queue[headIndex...] }

        func enqueue(_ p: QueuedPacket) {
            queue.append(p)
            received += 1
        }

        func popHead() -> QueuedPacket {
            let p = queue[headIndex]
            queue[headIndex].data = PacketBytes([]) // written packets keep no bytes alive until compaction
            headIndex += 1
            if headIndex == queue.count {
                queue.removeAll(keepingCapacity: true)
                headIndex = 0
            } else if headIndex >= 256 && headIndex * 2 >= queue.count {
                queue.removeFirst(headIndex)
                headIndex = 0
            }
            return p
        }

        /// Removes the queue's tail from dts `ms` on (dts rises within a track).
        func dropQueued(fromMilliseconds ms: Int64) -> (count: Int, bytes: Int) {
            var n = 0, bytes = 0
            while hasQueued, let last = queue.last, last.dts >= ms {
                bytes += last.data.count
                queue.removeLast()
                n += 1
            }
            return (n, bytes)
        }

        func clear() {
            queue.removeAll()
            headIndex = 0
        }
    }
}
