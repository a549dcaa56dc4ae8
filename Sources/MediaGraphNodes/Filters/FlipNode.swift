import MediaGraphCore
import MediaGraphKernels

/// `flip`: mirrors frames left to right, top to bottom, or both (ffmpeg's `hflip`, `vflip`,
/// `hflip,vflip`), pixels moved by `QuarterTurnKernel` (a flip is a turn of 0 or 180 mirrored).
/// The picture flips as it is shown, as ffmpeg's flips after its autorotate: through a display
/// rotation of 90 or 270 the stored rows show as columns, so a flip left to right of what is
/// shown is one top to bottom of what is stored. The display rotation and mirror stay the
/// input's, so a player turns the flipped frames as before.
public final class FlipNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "flip",
        doc: "Mirrors the picture as shown: horizontal (ffmpeg's hflip), vertical (vflip) or both (hflip,vflip; a half turn). Pixels are moved, exact; the display rotation stays the input's.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video, any pixel format")],
        outputs: [PortSpec("out", .anyVideo, doc: "the flipped frames (same format and size)")],
        params: ParamSpec.list(directionParam, KernelFilter.threadsParam))
    static let directionParam = Param<String>("direction", oneOf: ["horizontal", "vertical", "both"], default: "horizontal",
                                              doc: "horizontal: left to right (hflip); vertical: top to bottom (vflip); both: hflip,vflip")

    let direction: String
    let threads: Int
    var turn: QuarterTurn?

    public init(setup: NodeSetup) throws {
        direction = setup.params[Self.directionParam]
        threads = setup.params[KernelFilter.threadsParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        // a quarter-turn display rotation swaps what shows as horizontal and vertical (a
        // mirroring matrix does not: a flip commutes with a flip)
        var stored = direction
        if input.rotation % 180 != 0 && direction != "both" { stored = direction == "horizontal" ? "vertical" : "horizontal" }
        // QuarterTurnKernel: 0 mirrored flips left to right; 180 mirrored, top to bottom; 180, both
        turn = try QuarterTurn(source: input, degrees: stored == "horizontal" ? 0 : 180, mirrored: stored != "both",
                               turnsWhatIsShown: true, threads: threads)
        return [.video(turn?.output ?? input)]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let turn else { return try output.send(consume frame) }
        // never in place: the kernel reads rows and pixels it would already have overwritten
        try output.sendTransformed(consume frame, to: turn.output, inPlace: false) { src, dst, _ in
            try turn.run(source: src, destination: dst)
        }
    }
}
