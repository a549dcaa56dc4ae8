import MediaGraphCore

extension FrameCheck {
    /// The checks every kernel makes before touching memory (`FrameCheck.problem` for both
    /// frames), as `KernelError`s: a format the kernel takes, a destination like the source.
    package static func validate(kernel: String, source: FramePlanes, destination: FramePlanes,
                         accepted: [PixelFormat]) throws {
        guard accepted.contains(source.format) else {
            throw KernelError.unsupportedFormat(kernel: kernel, found: source.format, accepted: accepted)
        }
        let destinationProblem = problem(destination, format: source.format, width: source.width, height: source.height)
        if case let .mismatch(expected, found)? = destinationProblem {
            throw KernelError.mismatchedFrames(kernel: kernel, source: expected, destination: found)
        }
        if let p = problem(source, format: source.format, width: source.width, height: source.height) ?? destinationProblem {
            throw KernelError.badPlanes(kernel: kernel, detail: "\(p)")
        }
    }
}
