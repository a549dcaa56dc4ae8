import Foundation

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

    static var detectedPath: ColorMatrixKernel.VectorPath {
        #if arch(x86_64)
        if ProcessInfo.processInfo.environment["MEDIAGRAPH_NO_AVX2"] == "1" { return .sse2 }
        return hasAVX2FMA ? .avx2 : .sse2
        #else
        return .portable
        #endif
    }
}
