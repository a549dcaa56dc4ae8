import MediaGraphCore

extension FrameCheck {
    /// Checks a frame before a C library reads it (`FrameCheck.problem`), as a `CodecError`
    /// naming the component, the frame number and the frame's role ("source", "destination").
    static func check(_ planes: FramePlanes, format: PixelFormat, width: Int, height: Int,
                      component: String, role: String = "", frame: Int) throws {
        guard let problem = problem(planes, format: format, width: width, height: height) else { return }
        let what = role.isEmpty ? "" : "\(role) "
        let message: String
        if case let .mismatch(expected, found) = problem {
            message = "frame \(frame): expected \(what)\(expected), found \(found)"
        } else {
            message = "frame \(frame): \(what)\(problem)"
        }
        throw CodecError(.invalidInput, component: component, message: message)
    }
}
