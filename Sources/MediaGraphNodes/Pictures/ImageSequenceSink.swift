#if canImport(Glibc)
import Glibc
#endif
import MediaGraphCodecs
import MediaGraphCore

/// `imageseqsink`: writes every frame as a picture file named by a pattern (`frame-%05d.png`),
/// PNG, JPEG or WebP from the extension or `format`. Each file appears only when complete; when
/// the graph stops on an error the files this run wrote are removed again, as other sinks remove
/// their partial output.
public final class ImageSequenceSink: RegisteredNode, VideoNode {
    public static let typeInfo = NodeTypeInfo(
        name: "imageseqsink",
        doc: "Writes each frame as a picture file (PNG, JPEG, WebP) named by a pattern such as frame-%05d.png.",
        category: .sink,
        inputs: [PortSpec("in", .video(ImageEncodingParams.inputFormats), doc: "raw video")],
        params: ParamSpec.list([pathParam, startNumberParam] + ImageEncodingParams.all),
        // pictures have no display rotation: the frames are turned upright, as ffmpeg's autorotate does
        inputShape: RotateNode.uprightInputs)
    static let pathParam = Param<String>.requiredPath("path", doc: "file name pattern with a number field: %d or %05d the frame's number (%t its time as HH-MM-SS.mmm may be added, %% is a percent sign)")
    static let startNumberParam = Param<Int>("start-number", 0...1_000_000_000, default: 1, doc: "number of the first file")

    let pattern: ImageNamePattern
    let settings: StillImageSettings
    let firstNumber: Int
    var number: Int
    var encoder: StillImageEncoder?
    var format: VideoFormat?

    public init(setup: NodeSetup) throws {
        let p = setup.params
        let path = p[Self.pathParam]
        pattern = try ImageNamePattern(path, param: "path")
        guard pattern.hasNumber else {
            throw NodeFailure("param 'path': '\(path)' has no number field: every frame would get the same name; write %d or %05d where the number goes (frame-%05d.png)")
        }
        settings = try ImageEncodingParams.settings(p, path: path, pathParam: "path")
        firstNumber = p[Self.startNumberParam]
        number = firstNumber
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
        format = inputs[0].format.video
        if let format, let problem = StillImageEncoder.sizeProblem(settings, source: format) { throw NodeFailure(problem) }
        return []
    }

    public func start() throws {
        guard let format else { return }
        encoder = try StillImageEncoder(settings: settings, source: format)
    }

    public func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        guard let encoder else { return }
        let seconds = frame.seconds
        let file = try OutputFile(path: pattern.name(number: number, seconds: seconds))
        do {
            try encoder.encode(frame.planes) { bytes in
                if let base = bytes.baseAddress { try file.write(base, count: bytes.count) }
            }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
        number += 1
    }

    /// Files written so far.
    public var filesWritten: Int { number - firstNumber }

    public func abort() {
        // the names come again from the numbers (the times are not kept: a name with %t stays)
        guard !pattern.hasTime else { return }
        for n in firstNumber..<number {
            let name = pattern.name(number: n, seconds: 0)
            _ = name.withCString { unlink($0) }
        }
    }
}
