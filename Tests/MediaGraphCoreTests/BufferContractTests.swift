import MediaGraphCore
import Synchronization
import Testing

/// Takes raw audio only.
final class AudioOnlySink: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-audio-sink", doc: "takes raw audio", category: .sink,
                                       inputs: [PortSpec("in", .audio([.s16]))])
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}

/// Takes encoded packets only (as a muxer).
final class PacketOnlySink: RegisteredNode {
    static let typeInfo = NodeTypeInfo(name: "t-packet-sink", doc: "takes packets", category: .sink,
                                       inputs: [PortSpec("in", .encoded([.h264]))])
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
    func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
}

/// A typed video filter: gets `VideoFrame`s, inverts gray frames, counts in-place writes.
final class TypedInvert: RegisteredNode, VideoNode {
    /// Counts of this process's only graph with this node (the test below).
    static let counter = WriteCounter()
    static let typeInfo = NodeTypeInfo(name: "t-typed-invert", doc: "inverts gray", category: .filter,
                                       inputs: [PortSpec("in", .video([.gray]))], outputs: [PortSpec("out", .video([.gray]))])
    let counter = TypedInvert.counter
    init(setup: NodeSetup) throws {}
    func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [inputs[0].format] }
    func process(frame: consuming VideoFrame, input: Int, output: NodeOutput) throws {
        let counter = self.counter
        #expect(frame.format.pixelFormat == .gray)
        try output.sendTransformed(consume frame) { s, d, inPlace in
            if inPlace { counter.inPlace.add(1, ordering: .relaxed) } else { counter.copies.add(1, ordering: .relaxed) }
            for y in 0..<s.height {
                for x in 0..<s.width { d.data0[y * d.stride0 + x] = 255 &- s.data0[y * s.stride0 + x] }
            }
        }
    }
}

/// Counts calls of a release closure.
final class ReleaseCount: Sendable {
    let count = Atomic<Int>(0)
}

/// The buffer contract: sent buffers immutable and `Sendable`, writing through a noncopyable
/// writable value (in place only for the only reference), packet bytes that may be foreign
/// memory, typed ports and typed video nodes.
@Suite(.serialized) struct BufferContractTests {
    let gray = VideoFormat(pixelFormat: .gray, width: 4, height: 2)

    @Test func writingAFrozenBufferGivesANewOneAndLeavesTheSharedOneAlone() {
        var w = WritableBuffer(frame: gray)
        w.pts = 5
        w.planes!.data0[0] = 10
        let a = w.freeze()
        requireSendable(a)
        let keep = a   // another holder, as a second branch of a fan-out
        var w2 = SampleBuffer.writable(a)
        w2.pts = 9
        w2.planes!.data0[0] = 20
        let b = w2.freeze()
        #expect(keep.pts == 5 && keep.planes!.data0[0] == 10, "the shared buffer changed")
        #expect(b.pts == 9 && b.planes!.data0[0] == 20)
        #expect(b.planes!.data0 != keep.planes!.data0, "shared: written into a copy")

        var solo: SampleBuffer? = WritableBuffer(frame: gray).freeze()
        let memory = solo!.planes!.data0
        var w3 = SampleBuffer.writable(solo.take()!)
        w3.pts = 1
        #expect(w3.planes!.data0 == memory, "the only reference: written in place")
    }

    @Test func aFrameAForeignLibraryHoldsCountsAsShared() {
        let memory = FramePool.shared(for: gray).makeMemory()
        let opaque = memory.retainForeignReference()
        var b = WritableBuffer(metadata: BufferMetadata(format: .video(gray), timeBase: gray.timeBase), frameMemory: memory).freeze()
        #expect(!SampleBuffer.isUnique(&b), "libavcodec's hold was not seen")
        FrameMemory.releaseForeignReference(opaque)
        #expect(SampleBuffer.isUnique(&b))
    }

    @Test func foreignPacketBytesAreReadWithoutACopyAndReleasedOnce() {
        let released = ReleaseCount()
        let storage = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        defer { storage.deallocate() }
        for i in 0..<16 { storage.storeBytes(of: UInt8(i), toByteOffset: i, as: UInt8.self) }
        do {
            let format = MediaFormat.encodedVideo(EncodedVideoFormat(codec: .h264, raw: gray, timeBase: Rational(1, 90000)))
            let bytes = PacketBytes(foreign: storage, count: 16) { released.count.add(1, ordering: .relaxed) }
            let a = SampleBuffer(packet: bytes, metadata: BufferMetadata(format: format, pts: 0, duration: 3000, timeBase: Rational(1, 90000)))
            let branches = [a, a, SampleBuffer.restamped(a) { $0.pts = 3000 }]
            #expect(branches[2].pts == 3000 && a.pts == 0)
            for b in branches {
                b.withUnsafeBytes { #expect($0.baseAddress == UnsafeRawPointer(storage) && $0.count == 16, "copied") }
            }
            #expect(a.bytes == (0..<16).map { UInt8($0) })
            #expect(a.byteCount == 16)
            #expect(released.count.load(ordering: .relaxed) == 0)
        }
        #expect(released.count.load(ordering: .relaxed) == 1, "released \(released.count.load(ordering: .relaxed)) times")
    }

    @Test func validationNamesBothPortsWhenKindsCannotMeet() throws {
        let r = testRegistry()
        r.add(AudioOnlySink.self)
        r.add(PacketOnlySink.self)
        do {
            _ = try GraphPlan(validating: try GraphFile.parse(text: """
            { "nodes": { "s": { "type": "t-src" }, "a": { "type": "t-audio-sink" }, "m": { "type": "t-packet-sink" } },
              "chains": [["s", "a"], ["s", "m"]] }
            """), registry: r)
            Issue.record("raw video into raw audio and packet inputs was accepted")
        } catch let e as GraphValidationError {
            #expect(e.errors.map(\.message) == [
                "edge 's.out' → 'a.in': output 'out' of 's' (t-src) carries raw video, but input 'in' of 'a' (t-audio-sink) takes raw audio",
                "edge 's.out' → 'm.in': output 'out' of 's' (t-src) carries raw video, but input 'in' of 'm' (t-packet-sink) takes packets",
            ])
        }
        #expect(FormatCaps.anyVideo.payloadKind == .rawVideo && FormatCaps.encoded([.h264]).payloadKind == .packets)
        #expect(FormatCaps.any.payloadKind == nil)
        #expect(!FormatCaps.encodedVideo([.h264]).cannotFeed(.anyVideo), "packets into raw video: a decoder is inserted")
    }

    @Test func aVideoNodeGetsTypedFramesAndWritesInPlace() throws {
        let r = testRegistry()
        r.add(TypedInvert.self)
        let g = try GraphBuilder.build(try GraphFile.parse(text: """
        { "nodes": { "s": { "type": "t-src", "params": { "frames": 6 } }, "i": { "type": "t-typed-invert" }, "k": { "type": "t-sink" } },
          "chains": [["s", "i", "k"]] }
        """), registry: r, stop: StopFlag())
        try GraphRunner(graph: g).run()
        let sink = g.nodes.first { $0.id == "k" }!.instance as! Collector
        #expect(sink.values == (0..<6).map { 255 - UInt8($0) })
        #expect(TypedInvert.counter.inPlace.load(ordering: .relaxed) == 6 && TypedInvert.counter.copies.load(ordering: .relaxed) == 0)
    }
}
