import MediaGraphCore

/// Reads and writes one sample (a frame's channel) of raw audio bytes in any `SampleFormat`, as
/// a Double in the format's own scale (u8 centred on 0). For the few samples a crossfade touches;
/// a bulk path would convert whole planes.
struct AudioSampleLayout {
    let format: SampleFormat
    let channels: Int
    /// Samples per channel in the buffer (planar formats keep each channel's run together).
    let count: Int

    @inline(__always) func offset(_ i: Int, channel c: Int) -> Int {
        (format.isPlanar ? c * count + i : i * channels + c) * format.bytesPerSample
    }

    func read(_ raw: UnsafeRawBufferPointer, _ i: Int, channel c: Int) -> Double {
        let o = offset(i, channel: c)
        switch format {
        case .u8, .u8planar: return Double(raw.load(fromByteOffset: o, as: UInt8.self)) - 128
        case .s16, .s16planar: return Double(raw.loadUnaligned(fromByteOffset: o, as: Int16.self))
        case .s32, .s32planar: return Double(raw.loadUnaligned(fromByteOffset: o, as: Int32.self))
        case .f32, .f32planar: return Double(raw.loadUnaligned(fromByteOffset: o, as: Float.self))
        case .f64, .f64planar: return raw.loadUnaligned(fromByteOffset: o, as: Double.self)
        }
    }

    /// Integers are truncated toward zero (C's conversion, as ffmpeg's crossfade stores them)
    /// and clamped to their range; floats are rounded to the nearest.
    func write(_ raw: UnsafeMutableRawBufferPointer, _ i: Int, channel c: Int, _ v: Double) {
        let o = offset(i, channel: c)
        func int(_ lo: Double, _ hi: Double) -> Double { v.isNaN ? 0 : min(max(v.rounded(.towardZero), lo), hi) }
        switch format {
        case .u8, .u8planar: raw.storeBytes(of: UInt8(int(-128, 127) + 128), toByteOffset: o, as: UInt8.self)
        case .s16, .s16planar: raw.storeBytes(of: Int16(int(-32768, 32767)), toByteOffset: o, as: Int16.self)
        case .s32, .s32planar: raw.storeBytes(of: Int32(int(-2_147_483_648, 2_147_483_647)), toByteOffset: o, as: Int32.self)
        case .f32, .f32planar: raw.storeBytes(of: Float(v), toByteOffset: o, as: Float.self)
        case .f64, .f64planar: raw.storeBytes(of: v, toByteOffset: o, as: Double.self)
        }
    }
}
