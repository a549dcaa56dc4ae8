/// For one channel and one input byte of a 3D LUT: the grid offset of the lower grid point, the
/// offset to the upper one, and the fraction between them. Shared by the LUT3D row loops of
/// both modules, so it lives here, below `MediaGraphKernels`.
public struct LUT3DAxis: Sendable {
    public var low: Int32
    public var step: Int32
    public var fraction: Float

    public init(low: Int32, step: Int32, fraction: Float) {
        self.low = low
        self.step = step
        self.fraction = fraction
    }
}
