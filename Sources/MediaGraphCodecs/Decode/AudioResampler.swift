import CAVCodec
#if canImport(Glibc)
import Glibc
#endif
import CSwresample
import MediaGraphCore

/// Converts raw audio between sample formats, rates and channel layouts with libswresample (as
/// ffmpeg's aresample filter, default settings). Created once per pair of formats; in steady state
/// it allocates nothing but the output's own bytes (one array per buffer, the payload itself).
///
/// Audio is passed as `SampleBuffer`s hold it: interleaved formats in one block, planar formats
/// channel after channel.
public final class AudioResampler {
    public let source: AudioFormat
    public let destination: AudioFormat
    private var context: OpaquePointer?
    private let sourceSampleFormat: Int32
    private let sourceChannels: Int
    private let inputPlanes: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let outputPlanes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private let component: String

    /// Channel counts libswresample and SampleBuffer layouts are checked against.
    public static let maxChannels = 64

    public init(from source: AudioFormat, to destination: AudioFormat) throws {
        try Self.check(source, "source")
        try Self.check(destination, "destination")
        self.source = source
        self.destination = destination
        component = "resample"
        sourceSampleFormat = LibavFormats.avSampleFormat(source.sampleFormat).rawValue
        sourceChannels = source.channels
        inputPlanes = .allocate(capacity: Self.maxChannels)
        outputPlanes = .allocate(capacity: Self.maxChannels)
        var layout = AVChannelLayout()
        LibavFormats.setChannelLayout(&layout, source.channelLayout, channels: source.channels)
        defer { av_channel_layout_uninit(&layout) }
        try open(sourceFormat: sourceSampleFormat, sourceRate: source.sampleRate, sourceLayout: &layout)
    }

    /// A resampler from what a decoder produced (any libavutil sample format, s64 included).
    init(avFormat: Int32, rate: Int, layout: UnsafePointer<AVChannelLayout>, to destination: AudioFormat, component: String) throws {
        try Self.check(destination, "destination")
        self.component = component
        self.destination = destination
        sourceSampleFormat = avFormat
        sourceChannels = Int(layout.pointee.nb_channels)
        source = AudioFormat(sampleFormat: LibavFormats.sampleFormat(avFormat) ?? .f32, sampleRate: rate, channels: sourceChannels,
                             channelLayout: LibavFormats.channelLayout(layout.pointee))
        guard sourceChannels > 0, sourceChannels <= Self.maxChannels, rate > 0 else {
            throw CodecError(.processingFailed, component: component,
                             message: "cannot resample decoded audio of \(sourceChannels) channels at \(rate) Hz")
        }
        inputPlanes = .allocate(capacity: Self.maxChannels)
        outputPlanes = .allocate(capacity: Self.maxChannels)
        var copy = AVChannelLayout()
        av_channel_layout_copy(&copy, layout)
        defer { av_channel_layout_uninit(&copy) }
        if copy.order != AV_CHANNEL_ORDER_NATIVE {
            av_channel_layout_uninit(&copy)
            av_channel_layout_default(&copy, Int32(sourceChannels))
        }
        try open(sourceFormat: avFormat, sourceRate: rate, sourceLayout: &copy)
    }

    private static func check(_ f: AudioFormat, _ side: String) throws {
        guard f.channels >= 1 && f.channels <= maxChannels else {
            throw CodecError.setting("resample", "\(side) channels", expected: "1...\(maxChannels)", found: "\(f.channels)")
        }
        guard f.sampleRate >= 1 && f.sampleRate <= 1_536_000 else {
            throw CodecError.setting("resample", "\(side) rate", expected: "1...1536000", found: "\(f.sampleRate)")
        }
        if f.channelLayout.mask != 0 && f.channelLayout.mask.nonzeroBitCount != f.channels {
            throw CodecError.setting("resample", "\(side) layout", expected: "a layout of \(f.channels) channels",
                                     found: "\(f.channelLayout) (\(f.channelLayout.mask.nonzeroBitCount) channels)")
        }
    }

    private func open(sourceFormat: Int32, sourceRate: Int, sourceLayout: UnsafeMutablePointer<AVChannelLayout>) throws {
        // libswresample says why it refuses only through av_log (which would print it to stderr)
        LibraryLog.install()
        var outLayout = AVChannelLayout()
        LibavFormats.setChannelLayout(&outLayout, destination.channelLayout, channels: destination.channels)
        defer { av_channel_layout_uninit(&outLayout) }
        var ctx: OpaquePointer? = nil
        let r = swr_alloc_set_opts2(&ctx, &outLayout, LibavFormats.avSampleFormat(destination.sampleFormat), Int32(destination.sampleRate),
                                    sourceLayout, AVSampleFormat(rawValue: sourceFormat), Int32(sourceRate), 0, nil)
        guard r >= 0, let ctx else {
            throw CodecError(.openFailed, component: component, message: "libswresample refused \(source) → \(destination) (\(LibraryLog.describe(r)))")
        }
        context = ctx
        let initialized = swr_init(ctx)
        let logged = LibraryLog.take(for: UnsafeMutableRawPointer(ctx))
        guard initialized >= 0 else {
            let why = logged.last.map { ": \($0)" } ?? ""
            throw CodecError(.openFailed, component: component, message: "libswresample cannot convert \(source) to \(destination)\(why) (\(LibraryLog.describe(initialized)))")
        }
    }

    deinit {
        swr_free(&context)
        inputPlanes.deallocate()
        outputPlanes.deallocate()
    }

    /// The layout libavutil names so ("mono", "stereo", "5.1", "7.1", "FL+FR+LFE" …), nil when
    /// it knows no such layout or it is not a set of loudspeakers.
    public static func layout(named name: String) -> ChannelLayout? {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        guard av_channel_layout_from_string(&layout, name) >= 0, layout.order == AV_CHANNEL_ORDER_NATIVE, layout.u.mask != 0 else { return nil }
        return ChannelLayout(mask: layout.u.mask)
    }

    /// libavutil's default layout for a channel count (mono, stereo, 3.0, quad, 5.0, 5.1 …).
    public static func defaultLayout(channels: Int) -> ChannelLayout {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        av_channel_layout_default(&layout, Int32(channels))
        return layout.order == AV_CHANNEL_ORDER_NATIVE ? ChannelLayout(mask: layout.u.mask) : .unspecified
    }

    /// Samples held back inside the resampler, counted at the destination rate.
    public var delay: Int64 { swr_get_delay(context, Int64(destination.sampleRate)) }

    /// Converts `sampleCount` samples laid out as a `SampleBuffer` holds them; returns the
    /// destination's bytes and sample count (possibly fewer samples now, more at `flush`).
    public func convert(bytes: [UInt8], sampleCount: Int) throws -> (bytes: [UInt8], sampleCount: Int) {
        let bps = Int(av_get_bytes_per_sample(AVSampleFormat(rawValue: sourceSampleFormat)))
        let needed = sampleCount * sourceChannels * bps
        guard sampleCount >= 0, bytes.count >= needed else {
            throw CodecError(.invalidInput, component: component,
                             message: "\(sampleCount) samples of \(sourceChannels) channels need \(needed) bytes, found \(bytes.count)")
        }
        if sampleCount == 0 { return ([], 0) }
        return try bytes.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let planar = av_sample_fmt_is_planar(AVSampleFormat(rawValue: sourceSampleFormat)) != 0
            if planar {
                for c in 0..<sourceChannels { inputPlanes[c] = UnsafePointer(base + c * sampleCount * bps) }
            } else {
                inputPlanes[0] = UnsafePointer(base)
            }
            return try run(input: inputPlanes, count: sampleCount)
        }
    }

    /// Converts samples given as libavutil plane pointers (a decoded frame's `extended_data`).
    func convert(planes: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws -> (bytes: [UInt8], sampleCount: Int) {
        let planar = av_sample_fmt_is_planar(AVSampleFormat(rawValue: sourceSampleFormat)) != 0
        for c in 0..<(planar ? sourceChannels : 1) { inputPlanes[c] = UnsafePointer(planes[c]) }
        return try run(input: inputPlanes, count: count)
    }

    /// Drains what the resampler holds back (at the end of the stream).
    public func flush() throws -> (bytes: [UInt8], sampleCount: Int) {
        try run(input: nil, count: 0)
    }

    private func run(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) throws -> (bytes: [UInt8], sampleCount: Int) {
        let capacity = Int(swr_get_out_samples(context, Int32(count)))
        guard capacity >= 0 else {
            throw CodecError(.processingFailed, component: component, message: "libswresample: \(LibraryLog.describe(Int32(capacity)))")
        }
        if capacity == 0 && input == nil { return ([], 0) }
        let channels = destination.channels
        let bps = destination.sampleFormat.bytesPerSample
        let planar = destination.sampleFormat.isPlanar
        let room = max(capacity, 1)
        var written: Int32 = 0
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: room * channels * bps) { buffer, initialized in
            let base = buffer.baseAddress!
            if planar {
                for c in 0..<channels { outputPlanes[c] = base + c * room * bps }
            } else {
                outputPlanes[0] = base
            }
            let n = swr_convert(context, outputPlanes, Int32(room), input, Int32(count))
            guard n >= 0 else { failure = n; initialized = 0; return }
            written = n
            if planar && Int(n) < room {
                // planes channel after channel, each exactly n samples long
                for c in 1..<max(channels, 1) {
                    memmove(base + c * Int(n) * bps, base + c * room * bps, Int(n) * bps)
                }
            }
            initialized = Int(n) * channels * bps
        }
        guard failure == 0 else {
            throw CodecError(.processingFailed, component: component, message: "libswresample: \(LibraryLog.describe(failure))")
        }
        return (bytes, Int(written))
    }
}
