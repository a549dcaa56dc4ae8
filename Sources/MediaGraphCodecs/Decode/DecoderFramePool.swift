import CAVCodec
import MediaGraphCore
import Synchronization

/// Hands libavcodec picture memory from MediaGraph's frame pools (its `get_buffer2` callback), so
/// that a decoded picture is the `SampleBuffer` sent downstream, not a copy of it.
///
/// Each picture libavcodec asks for is a pooled `SampleBuffer` of a padded layout: the size
/// `avcodec_align_dimensions2` asks for, width rounded up to 128 pixels so every plane's stride is
/// a multiple of 64 bytes and the chroma stride is half the luma stride (as libavcodec's own
/// allocator arranges them). The AVBuffer wrapping it holds one Swift reference to the buffer
/// (`Unmanaged.passRetained`), dropped by the AVBuffer's free callback when libavcodec and the
/// frame have let go of the picture — on whatever thread that happens.
///
/// Why it is safe to hand the same object downstream while libavcodec still uses it as a
/// reference picture:
/// - libavcodec's reference keeps the Swift reference count above one, so a filter that wants to
///   write (`SampleBuffer.writable`, `NodeOutput.sendTransformed`) sees a shared buffer and writes
///   a new frame instead; once libavcodec lets go, the same filter writes in place.
/// - the AVBuffer is created read-only (`AV_BUFFER_FLAG_READONLY`), so libavcodec never writes
///   into a picture again after it was first decoded: where a decoder wants to update a previous
///   picture (`ff_reget_buffer`), it asks for a new one and copies.
/// - the free callback releases the Swift reference only after libavcodec's last access (the
///   AVBuffer reference count is atomic, acquire/release), so a uniqueness check that says "only
///   reference" can never race with a decoder thread still reading.
///
/// libavcodec calls `get_buffer2` from its frame threads; the pools and the bookkeeping here are
/// behind locks.
final class DecoderFramePool: Sendable {
    let timeBase: Rational
    /// Pools by padded layout; a stream that changes size keeps at most a few (older ones die
    /// with their last frame).
    private let pools = Lock<[(PoolKey, FramePool)]>([])
    /// Base addresses of every block this decoder has given libavcodec (bounded by the pools'
    /// allocation counts): tests check that decoded frames lie in them.
    private let blocks = Lock<Set<UInt>>([])
    private let served = Atomic<Int>(0)
    private let declined = Atomic<Int>(0)

    init(timeBase: Rational) {
        self.timeBase = timeBase
    }

    /// Pictures handed out from our pools / left to libavcodec's own allocator.
    var servedCount: Int { served.load(ordering: .relaxed) }
    var declinedCount: Int { declined.load(ordering: .relaxed) }
    /// Frame blocks the pools of this decoder allocated (flat once the decoder is warm).
    var allocatedBlocks: Int { pools.withLock { $0.reduce(0) { $0 + $1.1.allocationCount } } }
    /// Whether `pointer` is the start of a block this decoder gave libavcodec.
    func isPoolBlock(_ pointer: UnsafeRawPointer) -> Bool { blocks.withLock { $0.contains(UInt(bitPattern: pointer)) } }

    struct PoolKey: Equatable {
        var format: PixelFormat
        var width: Int32
        var height: Int32
    }

    /// The pool of a padded geometry (the layout is computed once per geometry: no allocation
    /// per picture).
    private func pool(for key: PoolKey) -> FramePool {
        pools.withLock { list in
            if let p = list.first(where: { $0.0 == key }) { return p.1 }
            let p = FramePool(layout: FrameLayout(format: key.format, width: Int(key.width), height: Int(key.height)))
            list.append((key, p))
            if list.count > 3 { list.removeFirst() }
            return p
        }
    }

    /// The pool for a picture, or nil when libavcodec's own allocator must serve it.
    private func pool(_ ctx: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>) -> FramePool? {
        guard let (format, _) = LibavFormats.pixelFormat(frame.pointee.format),
              MediaLimits.frameSizeProblem(width: Int(frame.pointee.width), height: Int(frame.pointee.height)) == nil else { return nil }
        var w = frame.pointee.width, h = frame.pointee.height
        var align: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &align) { raw in
            avcodec_align_dimensions2(ctx, &w, &h, raw.baseAddress!.assumingMemoryBound(to: Int32.self))
        }
        // Every stride is a multiple of 64 (FrameLayout); libavcodec asks for STRIDE_ALIGN.
        for a in [align.0, align.1, align.2].prefix(format.planeCount) where a <= 0 || a > 64 || 64 % a != 0 { return nil }
        return pool(for: PoolKey(format: format, width: (w + 127) & ~127, height: h))
    }

    /// `get_buffer2`: a pooled picture, or libavcodec's default allocator for formats we have no
    /// pool layout for.
    func getBuffer(_ ctx: UnsafeMutablePointer<AVCodecContext>, _ frame: UnsafeMutablePointer<AVFrame>, _ flags: Int32) -> Int32 {
        guard let pool = pool(ctx, frame) else {
            declined.add(1, ordering: .relaxed)
            return avcodec_default_get_buffer2(ctx, frame, flags)
        }
        let layout = pool.layout
        let format = VideoFormat(pixelFormat: layout.format, width: Int(frame.pointee.width), height: Int(frame.pointee.height),
                                 timeBase: timeBase)
        let buffer = pool.makeBuffer(timeBase: timeBase, format: format)
        guard let base = buffer.planes?.data0 else { return mg_averror_enomem() }
        let opaque = Unmanaged.passRetained(buffer).toOpaque()
        guard let ref = av_buffer_create(base, Int(layout.byteCount), releasePooledPicture, opaque, Int32(AV_BUFFER_FLAG_READONLY)) else {
            Unmanaged<SampleBuffer>.fromOpaque(opaque).release()
            return mg_averror_enomem()
        }
        DecoderFramePool.live.withLock { $0[UInt(bitPattern: opaque)] = false }
        blocks.withLock { _ = $0.insert(UInt(bitPattern: base)) }
        let f = frame
        f.pointee.buf.0 = ref
        f.pointee.data.0 = base + layout.offsets[0]
        f.pointee.linesize.0 = Int32(layout.strides[0])
        if layout.format.planeCount == 3 {
            f.pointee.data.1 = base + layout.offsets[1]
            f.pointee.data.2 = base + layout.offsets[2]
            f.pointee.linesize.1 = Int32(layout.strides[1])
            f.pointee.linesize.2 = Int32(layout.strides[2])
        }
        // extended_data must point at data for video
        f.pointee.extended_data = UnsafeMutableRawPointer(f).advanced(by: MemoryLayout<AVFrame>.offset(of: \AVFrame.data)!)
            .assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        served.add(1, ordering: .relaxed)
        return 0
    }

    /// The pooled buffer a decoded frame lies in, and whether this is the first time the
    /// picture is shown (a codec may show a picture twice: VP9's show_existing_frame); nil when
    /// libavcodec allocated the frame itself.
    func pooledBuffer(of frame: UnsafeMutablePointer<AVFrame>) -> (buffer: SampleBuffer, firstShowing: Bool)? {
        guard let ref = frame.pointee.buf.0, frame.pointee.buf.1 == nil, let opaque = av_buffer_get_opaque(ref) else { return nil }
        let key = UInt(bitPattern: opaque)
        guard DecoderFramePool.live.withLock({ $0[key] }) != nil else { return nil }
        // ours: the frame holds a reference, so the buffer stays alive while we look at it
        let buffer = Unmanaged<SampleBuffer>.fromOpaque(opaque).takeUnretainedValue()
        // the frame's planes must be where the pool put them (no cropping applied by offsets)
        guard let planes = buffer.planes, frame.pointee.data.0 == planes.data0 else { return nil }
        let shown = DecoderFramePool.live.withLock { live -> Bool in
            let before = live[key] ?? true
            live[key] = true
            return before
        }
        return (buffer, !shown)
    }

    /// Opaque pointers of the pooled pictures libavcodec holds (value: shown already), for every
    /// decoder: the free callback has only the opaque pointer to go by.
    static let live = Lock<[UInt: Bool]>([:])
}

/// The AVBuffer free callback of pooled pictures: forget the picture, then drop libavcodec's
/// Swift reference (the block returns to its pool once the graph has let go too).
private let releasePooledPicture: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?) -> Void = { opaque, _ in
    guard let opaque else { return }
    _ = DecoderFramePool.live.withLock { $0.removeValue(forKey: UInt(bitPattern: opaque)) }
    Unmanaged<SampleBuffer>.fromOpaque(opaque).release()
}

/// `AVCodecContext.get_buffer2` for decoders whose `opaque` is their `DecoderFramePool`.
let pooledGetBuffer: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafeMutablePointer<AVFrame>?, Int32) -> Int32 = { ctx, frame, flags in
    guard let ctx, let frame, let opaque = ctx.pointee.opaque else { return avcodec_default_get_buffer2(ctx, frame, flags) }
    return Unmanaged<DecoderFramePool>.fromOpaque(opaque).takeUnretainedValue().getBuffer(ctx, frame, flags)
}
