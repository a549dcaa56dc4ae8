import MediaGraphKernelsAVX2

/// How many samples of a plane are at or below a threshold (blackdetect's black pixels): AVX2
/// where the CPU has it, 32 bytes a step, else a loop the compiler vectorizes; one thread (a
/// 1080p luma plane is about 0.1 ms).
public enum SamplesAtMost {
    /// In an 8-bit plane of `width` x `height` samples, rows `stride` bytes apart.
    public static func count8(_ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, threshold: UInt8) -> Int {
        let avx2 = VectorPath.detected == .avx2
        var total = 0
        for y in 0..<height {
            let row = plane + y * stride
            var x = 0
            #if arch(x86_64)
            if avx2 {
                var n = 0
                x = countAtMostRowAVX2(row, bytes: width, threshold: threshold, count: &n)
                total += n
            }
            #endif
            var rest = 0
            while x < width {
                rest &+= row[x] <= threshold ? 1 : 0
                x += 1
            }
            total += rest
        }
        return total
    }

    /// In a plane of 16-bit samples (10-bit video), rows `stride` bytes apart.
    public static func count16(_ plane: UnsafeRawPointer, stride: Int, width: Int, height: Int, threshold: UInt16) -> Int {
        var total = 0
        for y in 0..<height {
            let row = (plane + y * stride).assumingMemoryBound(to: UInt16.self)
            var n = 0
            for x in 0..<width { n &+= row[x] <= threshold ? 1 : 0 }
            total += n
        }
        return total
    }
}
