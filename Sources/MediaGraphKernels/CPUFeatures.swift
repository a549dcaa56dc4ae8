import Foundation

/// Which row loops a kernel runs. The colour matrix and lut3d kernels have one per path.
public enum VectorPath: String, Sendable {
    /// 256-bit AVX2 with fused multiply-add (x86-64 CPUs that have both).
    case avx2
    /// 128-bit SSE2 (every x86-64 CPU).
    case sse2
    /// Per-pixel code vectorized by the compiler (other architectures).
    case portable

    /// The best path this CPU runs, found once; `MEDIAGRAPH_NO_AVX2=1` in the environment keeps
    /// the SSE2 loops.
    public static let detected: VectorPath = CPUFeatures.detectedPath
}

/// What the CPU offers beyond the x86-64 baseline, read once from /proc/cpuinfo (Linux lists a
/// feature there only when the kernel also saves its registers, so a listed AVX2 is usable).
enum CPUFeatures {
    static let flags: Set<Substring> = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
              let colon = line.firstIndex(of: ":") else { return [] }
        return Set(line[line.index(after: colon)...].split(separator: " "))
    }()

    /// Whether the AVX2 module's loops may run here.
    static let hasAVX2FMA: Bool = {
        #if arch(x86_64)
        return flags.contains("avx2") && flags.contains("fma")
        #else
        return false
        #endif
    }()

    /// Whether `MEDIAGRAPH_NO_AVX512=1` (the AVX2 loops instead of the AVX-512 ones) or
    /// `MEDIAGRAPH_NO_AVX2=1` (the SSE2 loops) is set.
    static let avx512Disabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        return environment["MEDIAGRAPH_NO_AVX2"] == "1" || environment["MEDIAGRAPH_NO_AVX512"] == "1"
    }()

    /// Whether the AVX-512 byte-table loop may run here (`byteTablesRowAVX512`): AVX-512 F, BW
    /// and VBMI, unless `avx512Disabled`.
    static let hasAVX512VBMI: Bool = {
        #if arch(x86_64)
        if avx512Disabled { return false }
        return flags.contains("avx512f") && flags.contains("avx512bw") && flags.contains("avx512vbmi")
        #else
        return false
        #endif
    }()

    /// Whether the fixed-point colour-chain loop may run here (`colorChainRowVNNI`): AVX-512 F,
    /// BW and VNNI, unless `avx512Disabled`.
    static let hasAVX512VNNI: Bool = {
        #if arch(x86_64)
        if avx512Disabled { return false }
        return flags.contains("avx512f") && flags.contains("avx512bw") && flags.contains("avx512_vnni")
        #else
        return false
        #endif
    }()

    static var detectedPath: VectorPath {
        #if arch(x86_64)
        if ProcessInfo.processInfo.environment["MEDIAGRAPH_NO_AVX2"] == "1" { return .sse2 }
        return hasAVX2FMA ? .avx2 : .sse2
        #else
        return .portable
        #endif
    }
}
