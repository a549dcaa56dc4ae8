import MediaGraphCore
import MediaGraphKernels

/// A pixel kernel as a filter runs it: once per frame, source and destination possibly the same.
public protocol FrameKernel {
    func run(source: FramePlanes, destination: FramePlanes, threads: Int) throws
}

extension InvertKernel: FrameKernel {}
extension ColorMatrixKernel: FrameKernel {}
extension ChannelCurvesKernel: FrameKernel {}
extension LUT3DKernel: FrameKernel {}

/// The shared base of the built-in pixel filters: the subclass picks a kernel from its params
/// once (`makeKernel`); every frame then runs through it in place when the frame is unshared, or
/// from the shared frame into a new one otherwise (`NodeOutput.sendTransformed`).
///
/// A filter is one short subclass plus one registration line:
/// ```swift
/// public final class SepiaFilter: KernelFilter, RegisteredNode {
///     public static let typeInfo = filterInfo("sepia", "GPUImage's sepia tone.", formats: ColorMatrixKernel.formats,
///                                             params: [.double("intensity", 0...1, default: 1, doc: "mix with the input")])
///     override public class func makeKernel(_ p: ParamValues) throws -> FrameKernel {
///         ColorMatrixKernel(try .sepia(intensity: p.double("intensity", default: 1)))
///     }
/// }
/// ```
open class KernelFilter: MediaNode {
    let kernel: FrameKernel
    let threads: Int

    public required init(setup: NodeSetup) throws {
        threads = setup.params.int("threads", default: 0)
        kernel = try Self.makeKernel(setup.params)
    }

    /// The kernel for these params; throw a `NodeFailure` naming the param when they cannot work.
    open class func makeKernel(_ params: ParamValues) throws -> FrameKernel {
        throw NodeFailure("\(self) does not choose a kernel")
    }

    /// A filter's declaration: one input and one output of the given pixel formats, its params
    /// plus `threads`.
    public static func filterInfo(_ name: String, _ doc: String, formats: [PixelFormat], params: [ParamSpec] = []) -> NodeTypeInfo {
        NodeTypeInfo(name: name, doc: doc, category: .filter,
                     inputs: [PortSpec("in", .video(formats), doc: "raw video")],
                     outputs: [PortSpec("out", .video(formats), doc: "raw video, same format")],
                     params: params + [.int("threads", 0...256, default: 0, doc: "threads for the row bands (0 = all cores)")])
    }

    public func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }

    public func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let kernel = self.kernel, threads = self.threads
        try output.sendTransformed(consume buffer) { src, dst, _ in
            try kernel.run(source: src, destination: dst, threads: threads)
        }
    }
}

/// Turns a kernel-side error into a message naming the param.
func param<T>(_ name: String, _ body: () throws -> T) throws -> T {
    do { return try body() } catch { throw NodeFailure("param '\(name)': \(error)") }
}
