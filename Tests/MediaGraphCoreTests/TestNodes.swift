import MediaGraphCore
import Synchronization

/// Small nodes for engine tests: a source of gray frames whose value is the frame index, a filter
/// that adds one (in place when it may), and a sink that keeps what it saw.
final class CountingSource: SourceNode, RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-src", doc: "frames valued by index", category: .source,
                                       outputs: [PortSpec("out", .anyVideo)],
                                       params: [.int("frames", default: 10, doc: ""), .int("width", default: 8, doc: ""),
                                                .int("height", default: 8, doc: "")])
    let frames: Int
    let format: VideoFormat
    var index = 0
    init(setup: NodeSetup) throws {
        frames = setup.params.int("frames", default: 10)
        format = VideoFormat(pixelFormat: .gray, width: setup.params.int("width", default: 8), height: setup.params.int("height", default: 8))
    }
    var expectedCount: Int? { frames }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [.video(format)] }
    func produce(output: NodeOutput) throws -> Bool {
        guard index < frames else { return false }
        var b = WritableBuffer(frame: format)
        let p = b.planes!
        for y in 0..<format.height { (p.data0 + y * p.stride0).update(repeating: UInt8(index & 0xff), count: format.width) }
        b.pts = Int64(index)
        index += 1
        try output.send(consume b)
        return true
    }
}

/// Counts in-place writes and copies across all instances of a test.
final class WriteCounter: Sendable {
    let inPlace = Atomic<Int>(0)
    let copies = Atomic<Int>(0)
}

final class AddOne: RegisteredNode {
    /// The counter new instances count into; a test that counts puts a fresh one here.
    static var counter: WriteCounter {
        get { counterSlot.withLock { $0 } }
        set { counterSlot.withLock { $0 = newValue } }
    }
    private static let counterSlot = Lock(WriteCounter())
    static let typeInfo = NodeTypeInfo(name: "t-add", doc: "adds one", category: .filter,
                                       inputs: [PortSpec("in", .video([.gray]))], outputs: [PortSpec("out", .video([.gray]))],
                                       params: [.int("fail-at", default: -1, doc: "throw at this frame")])
    let failAt: Int
    let counter: WriteCounter
    init(setup: NodeSetup) throws {
        failAt = setup.params.int("fail-at", default: -1)
        counter = AddOne.counter
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        let src = consume buffer
        if Int(src.pts) == failAt { throw NodeFailure("failing on purpose at frame \(failAt)") }
        let counter = self.counter
        try output.sendTransformed(consume src) { s, d, inPlace in
            if inPlace { counter.inPlace.add(1, ordering: .relaxed) } else { counter.copies.add(1, ordering: .relaxed) }
            for y in 0..<s.height {
                for x in 0..<s.width { d.data0[y * d.stride0 + x] = s.data0[y * s.stride0 + x] &+ 1 }
            }
        }
    }
}

/// Keeps the first byte of every frame; records whether it was aborted or finished.
final class Collector: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-sink", doc: "collects", category: .sink, inputs: [PortSpec("in", .any)],
                                       params: [.int("delay-us", default: 0, doc: "sleep per buffer")])
    var values: [UInt8] = []
    var finished = false
    var aborted = false
    let delay: Int
    init(setup: NodeSetup) throws {
        delay = setup.params.int("delay-us", default: 0)
    }
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {
        if delay > 0 { usleep(UInt32(delay)) }
        values.append(buffer.planes!.data0[0])
    }
    func finish(output: NodeOutput) throws { finished = true }
    func abort() { aborted = true }
}

#if canImport(Glibc)
import Glibc
#endif

func testRegistry() -> NodeRegistry {
    let r = NodeRegistry()
    r.add(CountingSource.self)
    r.add(AddOne.self)
    r.add(Collector.self)
    return r
}
