import MediaGraphKernelsAVX2

/// The sum of absolute differences between two planes of the same size (scene change scores, as
/// ffmpeg's scene_sad): AVX2 `vpsadbw` where the CPU has it, else a loop the compiler vectorizes.
public enum SumOfDifferences {
    /// Over `width` bytes of `height` rows of two 8-bit planes.
    public static func bytes(_ a: UnsafePointer<UInt8>, strideA: Int, _ b: UnsafePointer<UInt8>, strideB: Int, width: Int, height: Int) -> UInt64 {
        let avx2 = VectorPath.detected == .avx2
        var total: UInt64 = 0
        for y in 0..<height {
            let ra = a + y * strideA, rb = b + y * strideB
            var x = 0
            #if arch(x86_64)
            if avx2 {
                var sum: UInt64 = 0
                x = sadRowAVX2(ra, rb, bytes: width, sum: &sum)
                total &+= sum
            }
            #endif
            var rest: UInt64 = 0
            while x < width {
                rest &+= UInt64(ra[x] > rb[x] ? ra[x] - rb[x] : rb[x] - ra[x])
                x += 1
            }
            total &+= rest
        }
        return total
    }

    /// Over `width` samples of `height` rows of two planes of 16-bit samples (rows `stride` bytes apart).
    public static func words(_ a: UnsafeRawPointer, strideA: Int, _ b: UnsafeRawPointer, strideB: Int, width: Int, height: Int) -> UInt64 {
        var total: UInt64 = 0
        for y in 0..<height {
            let ra = (a + y * strideA).assumingMemoryBound(to: UInt16.self)
            let rb = (b + y * strideB).assumingMemoryBound(to: UInt16.self)
            var row: UInt64 = 0
            for x in 0..<width { row &+= UInt64(ra[x] > rb[x] ? ra[x] - rb[x] : rb[x] - ra[x]) }
            total &+= row
        }
        return total
    }
}
