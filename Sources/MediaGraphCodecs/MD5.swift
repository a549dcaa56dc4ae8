import CAVCodec

/// MD5 by libavutil (`av_md5_*`), for frame hashes comparable with `ffmpeg -f framemd5`.
/// Streaming: feed bytes with `update`, read the digest with `finalize`.
public struct MD5: ~Copyable {
    /// libavutil's context (nil only if out of memory: libavutil's functions then do nothing).
    private let context: OpaquePointer?

    public init() {
        context = av_md5_alloc()
        if context != nil { av_md5_init(context) }
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    public mutating func update(_ p: UnsafePointer<UInt8>, count: Int) {
        guard count > 0, context != nil else { return }
        av_md5_update(context, p, count)
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { if let b = $0.baseAddress { update(b, count: $0.count) } }
    }

    /// The digest as 32 lowercase hex digits. The hash starts over afterwards.
    public mutating func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        guard context != nil else { return "" }
        av_md5_final(context, &digest)
        av_md5_init(context)
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(32)
        for b in digest { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
