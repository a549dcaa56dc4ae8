/// Named colour matrices for the `colormatrix` node's `preset` param.
extension ColorTransform {
    /// The names `preset(named:intensity:)` accepts, in the order the docs list them.
    public static let presetNames: [String] = [
        "sepia", "grayscale", "grayscale601", "invert", "swap-rb", "warm", "cool", "vivid", "faded",
    ]

    /// A preset matrix mixed with the input by `intensity` (0…1).
    public static func preset(named name: String, intensity: Double = 1) throws -> ColorTransform {
        try KernelError.check("intensity", intensity, in: intensityRange)
        var full: ColorTransform
        switch name {
        case "sepia": full = try sepia()
        case "grayscale": full = try grayscale()
        case "grayscale601":
            // Rec. 601 luma, what most video tools call "gray".
            full = try matrix([0.299, 0.587, 0.114, 0, 0.299, 0.587, 0.114, 0,
                               0.299, 0.587, 0.114, 0, 0, 0, 0, 1])
        case "invert":
            full = try matrix([-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1], offset: [1, 1, 1, 0])
        case "swap-rb":
            full = try matrix([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1])
        case "warm": full = try rgbGains(r: 1.15, g: 1.03, b: 0.85)
        case "cool": full = try rgbGains(r: 0.88, g: 1.0, b: 1.15)
        case "vivid": full = try saturation(1.4).then(contrast(1.1))
        case "faded": full = try saturation(0.7).then(contrast(0.8)).then(brightness(0.05))
        default:
            throw KernelError.invalidParameter(
                name: "preset", detail: "unknown preset '\(name)'; expected one of " + presetNames.joined(separator: ", "))
        }
        full.intensity = intensity
        return full
    }
}
