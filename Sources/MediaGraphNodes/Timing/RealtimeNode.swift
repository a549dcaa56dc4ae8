#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCore

/// `realtime`: lets buffers through no faster than their timestamps say, as ffmpeg's `realtime`
/// and `arealtime` filters do (and its input option `-re` for packets): a file read as a live
/// feed for a live HLS playlist, a preview, a test of a live setup. Any stream passes — raw video,
/// raw audio, encoded packets — unchanged.
///
/// The first buffer passes at once and fixes the clock; each later one waits until as much wall
/// time has passed, divided by `speed`, as its time is past the first's. A jump of more than
/// `limit` ahead of or behind the clock (a timestamp discontinuity) restarts the clock at that
/// buffer instead of waiting (ffmpeg's rule). Packets are paced by decode time (it never goes
/// back), frames and samples by presentation time. Waiting checks for Ctrl-C every 50 ms; after
/// it, everything passes at once so the run can end in order.
public final class RealtimeNode: RegisteredNode {
    public static let typeInfo = NodeTypeInfo(
        name: "realtime",
        doc: "Lets buffers through no faster than their timestamps say (ffmpeg's realtime/arealtime filters, its -re input option): a file read as a live feed; any stream, unchanged.",
        category: .filter,
        inputs: [PortSpec("in", .any, doc: "raw video, raw audio or encoded packets")],
        outputs: [PortSpec("out", .any, doc: "the same buffers, each no earlier than its time")],
        params: ParamSpec.list(speedParam, limitParam),
        threading: .ownThread)
    static let speedParam = Param<Double>("speed", 0.01...100, default: 1,
                                          doc: "how many seconds of media pass per second of wall time (ffmpeg's speed)")
    static let limitParam = Param<Double>("limit", 0.001...86400, default: 2,
                                          doc: "seconds of media time a buffer may be ahead of or behind the clock before it counts as a jump: the clock restarts at it instead of waiting (ffmpeg's limit)")

    /// Longest single sleep, so Ctrl-C is seen promptly.
    static let wakeEvery: Int64 = 50_000_000

    let speed: Double
    /// `limit` in nanoseconds of wall time (media seconds over speed).
    let limitNanos: Int64
    let stop: StopFlag
    /// Wall time (CLOCK_MONOTONIC ns) minus the paced media time of the buffer that set the clock.
    var offset: Int64?
    var jumps = 0

    public init(setup: NodeSetup) throws {
        speed = setup.params[Self.speedParam]
        limitNanos = Int64(setup.params[Self.limitParam] / speed * 1e9)
        stop = setup.stop
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        [inputs[0].format]
    }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if let due = mediaNanos(of: buffer) { wait(until: due) }
        try output.send(buffer)
    }

    /// The buffer's time in nanoseconds of wall time (its timestamp over `speed`), if it has one.
    func mediaNanos(of buffer: borrowing SampleBuffer) -> Int64? {
        let packet: Bool
        if case .packet = buffer.payload { packet = true } else { packet = false }
        let ticks = packet && buffer.dts != BufferMetadata.noTime ? buffer.dts : buffer.pts
        guard ticks != BufferMetadata.noTime else { return nil }
        let tb = buffer.timeBase
        let nanos = Double(ticks) * Double(tb.num) / Double(tb.den) * 1e9 / speed
        return nanos.isFinite && abs(nanos) < 9e18 ? Int64(nanos) : nil
    }

    func wait(until media: Int64) {
        let now = Int64(bitPattern: Self.now())
        guard let offset, !stop.isSet else {
            if offset == nil { offset = now &- media }
            return
        }
        let due = media &+ offset
        if abs(due &- now) > limitNanos {
            self.offset = now &- media
            jumps += 1
            return
        }
        var left = due &- now
        while left > 0 && !stop.isSet {
            let slice = min(left, Self.wakeEvery)
            var t = timespec(tv_sec: Int(slice / 1_000_000_000), tv_nsec: Int(slice % 1_000_000_000))
            _ = nanosleep(&t, nil)  // a signal cuts it short: the loop measures again
            left = due &- Int64(bitPattern: Self.now())
        }
    }

    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    public var runNotes: [String] {
        jumps == 0 ? [] : ["\(jumps) timestamp jump\(jumps == 1 ? "" : "s") past param 'limit': the clock restarted there instead of waiting"]
    }
}
