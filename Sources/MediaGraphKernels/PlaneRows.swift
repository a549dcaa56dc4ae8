import MediaGraphCore

extension RowBands {
    /// Rows of plane `plane` that belong to the band `rows` of luma rows: the floor mapping makes
    /// neighbouring bands meet exactly, so every chroma row is processed once.
    @inline(__always)
    static func planeRows(_ rows: Range<Int>, plane: Int, of frame: FramePlanes) -> Range<Int> {
        if plane == 0 { return rows }
        let h = frame.planeSize(plane).height
        return (rows.lowerBound * h / frame.height)..<(rows.upperBound * h / frame.height)
    }
}
