import MediaGraphCore
import MediaGraphKernels

/// `rotate`: turns frames clockwise by quarter turns (`QuarterTurnKernel`), by default as the
/// stream's own display rotation says, so the frames come out upright and marked rotation 0 —
/// what ffmpeg's autorotate does before its filters. A format's `rotation` is libavutil's
/// `av_display_rotation_get` angle (what `-metadata:s:v rotate=90` writes and ffprobe's
/// `rotation` shows), which turns the picture counterclockwise for display: ffmpeg's
/// autorotate undoes 90 with `transpose=cclock`, so `auto` turns clockwise by 360 − rotation. The graph inserts it (as `auto_rotate_…`) where
/// a node needs upright video: `concat` joins clips that each carry their own rotation.
public final class RotateNode: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "rotate",
        doc: "Turns frames clockwise by 90, 180 or 270 degrees (pixels moved, exact); 'auto' turns them as the stream's display rotation says, and flips them where its matrix mirrors, so they are upright and carry none (ffmpeg's autorotate: rotation 90 is a quarter turn counterclockwise). Given degrees turn the picture as shown (ffmpeg's transpose=clock for 90): the display rotation stays the input's.",
        category: .filter,
        inputs: [PortSpec("in", .anyVideo, doc: "raw video (a quarter turn of 4:2:2 gives 4:4:4: turned, it would be 4:4:0, which no pixel format holds)")],
        outputs: [PortSpec("out", .anyVideo, doc: "the turned frames (a quarter turn swaps width and height)")],
        params: ParamSpec.list(degreesParam, KernelFilter.threadsParam))
    static let degreesParam = Param<String>("degrees", oneOf: ["auto", "0", "90", "180", "270"], default: "auto",
                                            doc: "degrees clockwise; auto: what undoes the stream's display rotation, 360 - rotation, and a mirroring matrix's flip (none: frames pass unchanged)")

    /// Where a node needs upright video (`FormatShape.rotation` 0), turn by the display rotation.
    public static let adapter = FormatAdapter(nodeType: "rotate", label: "rotate", params: { _, _, _ in nil }, reshape: { format, shape in
        guard let v = format.video, shape.rotation == 0, v.rotation != 0 || v.mirrored else { return nil }
        return ["degrees": .string("auto", nil)]
    })

    /// For sinks that write pictures or raw frames (which carry no display rotation): an input with one is
    /// turned upright first, as ffmpeg autorotates before it writes pictures; the graph inserts a
    /// `rotate` (shown by `validate`). Nodes that combine videos ask for the same through
    /// `InputMatching.videoUpright`, which leaves a lone input's rotation as metadata.
    public static let uprightInputs: @Sendable (_ input: String, _ format: MediaFormat) -> FormatShape? = { _, format in
        guard let v = format.video, v.rotation != 0 || v.mirrored else { return nil }
        return FormatShape(rotation: 0)
    }

    let id: String
    let degreesChoice: String
    let threads: Int
    var turn: QuarterTurn?

    public init(setup: NodeSetup) throws {
        id = setup.id
        degreesChoice = setup.params[Self.degreesParam]
        threads = setup.params[KernelFilter.threadsParam]
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        guard let input = inputs[0].format.video else { throw NodeFailure("expected raw video, found \(inputs[0].format)") }
        if degreesChoice == "auto" {
            let way = QuarterTurn.upright(input)
            turn = try QuarterTurn(source: input, degrees: way.degrees, mirrored: way.mirrored, threads: threads)
        } else {
            // through a mirroring display matrix a clockwise turn of the pixels shows as a
            // counterclockwise one: turn the other way so the picture shows the given degrees
            let degrees = Int(degreesChoice) ?? 0
            turn = try QuarterTurn(source: input, degrees: input.mirrored ? 360 - degrees : degrees, turnsWhatIsShown: true, threads: threads)
        }
        return [.video(turn?.output ?? input)]
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let turn else { return try output.send(consume frame) }
        // always a new pooled frame: the kernel cannot work in place (a half turn given as
        // degrees keeps the format, so the frame would otherwise be offered in place)
        try output.sendTransformed(consume frame, to: turn.output, inPlace: false) { src, dst, _ in
            try turn.run(source: src, destination: dst)
        }
    }
}
