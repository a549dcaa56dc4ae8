import Foundation
import MediaGraphCore
import MediaGraphNodes
import Testing

/// Where the graph inserts `decode`, `convert` and `resample`: validated graphs with a stand-in
/// file source that declares what a real file's streams would (10-bit HEVC, AAC with an error
/// policy), so the negotiation is checked without reading media.
@Suite struct DecodeAdapterTests {
    /// A source of encoded streams as a file source declares them; it produces nothing.
    final class StreamsSource: SourceNode, RegisteredNode {
        static let typeInfo = NodeTypeInfo(
            name: "streams", doc: "test stand-in for a file source", category: .source,
            outputs: [PortSpec("video", .encodedVideo([.hevc])), PortSpec("audio", .encodedAudio([.aac]))],
            params: [.choice("errors", ["stop", "skip"], default: "stop", doc: "error policy")])
        init(setup: NodeSetup) throws {}
        func configure(inputs: [InputFormat]) throws -> [MediaFormat] {
            let raw = VideoFormat(pixelFormat: .yuv420p10, width: 320, height: 240, frameRate: Rational(25, 1), timeBase: Rational(1, 12800))
            let audio = AudioFormat(sampleFormat: .f32planar, sampleRate: 48000, channels: 2, channelLayout: .stereo)
            return [.encodedVideo(EncodedVideoFormat(codec: .hevc, raw: raw, timeBase: Rational(1, 12800))),
                    .encodedAudio(EncodedAudioFormat(codec: .aac, raw: audio, extradata: [0x11, 0x90]))]
        }
        func produce(output: NodeOutput) throws -> Bool { false }
    }

    /// Takes s16 audio only (as some encoders and sinks do).
    final class S16Sink: RegisteredNode {
        static let typeInfo = NodeTypeInfo(name: "s16sink", doc: "takes s16", category: .sink, inputs: [PortSpec("in", .audio([.s16]))])
        init(setup: NodeSetup) throws {}
        func configure(inputs: [InputFormat]) throws -> [MediaFormat] { [] }
        func process(_ buffer: consuming SampleBuffer, input: Int, output: NodeOutput) throws {}
    }

    func build(_ json: String) throws -> ValidatedGraph {
        let r = BuiltinNodes.makeRegistry()
        r.add(StreamsSource.self)
        r.add(S16Sink.self)
        return try GraphBuilder.build(try GraphFile.parse(text: json), registry: r, for: .inspect)
    }

    @Test func tenBitIsDecodedOnceThenConvertedVisiblyForEightBitFilters() throws {
        let g = try build("""
        { "nodes": { "in": { "type": "streams" }, "inv": { "type": "invert" }, "sep": { "type": "sepia" },
                     "h": { "type": "framehash", "params": { "path": "-" } }, "n": { "type": "nullsink" }, "m": { "type": "nullsink" } },
          "chains": [["in.video", "inv", "n"], ["in.video", "sep", "m"], ["in.video", "h"]] }
        """)
        #expect(g.notes.filter { $0.contains("(decode)") } == ["inserted 'auto_decode_in_video' (decode): hevc 320x240 → yuv420p10le after 'in.video'"],
                "one decoder for the stream: \(g.notes)")
        #expect(g.notes.contains("inserted 'auto_convert_inv_in' (convert): yuv420p10le → yuv420p before 'inv.in'"), "\(g.notes)")
        // sepia runs on 8-bit YUV too (PlaneColorChain): the same layout with 8 bits, no detour through RGB
        #expect(g.notes.contains("inserted 'auto_convert_sep_in' (convert): yuv420p10le → yuv420p before 'sep.in'"), "\(g.notes)")
        // a sink that takes anything gets the packets
        #expect(g.notes.contains("'in.video' → 'h.in': hevc packets copied, not decoded"), "\(g.notes)")
        let decoder = g.nodes.first { $0.id == "auto_decode_in_video" }
        #expect(decoder?.outputFormats.first?.video?.timeBase == Rational(1, 12800), "frames keep the stream's time base")
    }

    @Test func audioIsDecodedThenResampledWhereTheSampleFormatDiffers() throws {
        let g = try build("""
        { "nodes": { "in": { "type": "streams", "params": { "errors": "skip" } }, "s": { "type": "s16sink" } },
          "chains": [["in.audio", "s"]] }
        """)
        #expect(g.notes.contains("inserted 'auto_decode_in_audio' (decode): aac 48000Hz 2ch → f32planar 48000Hz 2ch after 'in.audio'"), "\(g.notes)")
        #expect(g.notes.contains("inserted 'auto_resample_s_in' (resample): f32planar 48000Hz 2ch → s16 48000Hz 2ch before 's.in'"), "\(g.notes)")
        // the decoder took the source's error policy
        #expect(g.nodes.first { $0.id == "auto_decode_in_audio" }?.params.string("errors") == "skip")
    }

    @Test func encodedInputsAreNeverDecoded() throws {
        let g = try build("""
        { "nodes": { "in": { "type": "streams" }, "a": { "type": "adtssink", "params": { "path": "out.aac" } } },
          "chains": [["in.audio", "a"]] }
        """)
        #expect(!g.notes.contains { $0.contains("inserted") }, "\(g.notes)")
    }
}
