import Foundation
import Testing

/// Malformed graphs and media: each gives a clear message, the right exit code, no crash or hang,
/// and no partial file at an output path.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var graph: String
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let sink = #""out": { "type": "y4msink", "params": { "path": "out.y4m" } }"#
    static let src = #""src": { "type": "testsrc", "params": { "width": 64, "height": 48, "frames": 3 } }"#

    static let graphCases: [Case] = [
        Case(name: "not JSON", graph: "{ nodes: 1 }", status: 2, message: "g.json:1:3: error: invalid JSON: unexpected 'n', expected a key in double quotes"),
        Case(name: "truncated file", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\" ", status: 2,
             message: "error: invalid JSON: unexpected end of file inside the object opened at 1:21 (missing '}'?)"),
        Case(name: "top level array", graph: "[]", status: 2, message: "g.json:1:1: error: a graph file must be a JSON object with \"nodes\" and \"chains\", found array"),
        Case(name: "no nodes", graph: "{ \"chains\": [] }", status: 2, message: "error: the graph has no \"nodes\""),
        Case(name: "empty nodes", graph: "{ \"nodes\": {}, \"chains\": [] }", status: 2,
             message: "g.json:1:12: error: \"nodes\" is empty: a graph needs at least a source and a sink (`mediagraph nodes` lists them)"),
        Case(name: "unknown top-level key", graph: "{ \"nodes\": {}, \"chanis\": [] }", status: 2,
             message: "g.json:1:26: error: unknown top-level key \"chanis\"; expected \"nodes\", \"chains\", \"plugins\", \"fuse\" or \"description\" (did you mean \"chains\"?)"),
        Case(name: "unknown node type", graph: "{ \"nodes\": { \"src\": { \"type\": \"tstsrc\" }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "g.json:1:31: error: node 'src': unknown node type 'tstsrc'; did you mean 'testsrc'?"),
        Case(name: "unknown param", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"widht\": 64 } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' (testsrc): unknown param 'widht'; did you mean 'width'?"),
        Case(name: "param wrong type", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"width\": \"wide\" } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' param 'width': expected integer 2…16384, found string \"wide\""),
        Case(name: "param out of range", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"width\": -5 } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "g.json:1:63: error: node 'src' param 'width': expected integer 2…16384, found -5"),
        Case(name: "param not an integer", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"frames\": 2.5 } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' param 'frames': expected integer 0…100000000, found 2.5"),
        Case(name: "bad choice", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"format\": \"nv12\" } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' param 'format': expected one of \"yuv420p\", \"yuv422p\", \"yuv444p\", \"rgba\", \"bgra\", \"gray\", found \"nv12\""),
        Case(name: "bad rational", graph: "{ \"nodes\": { \"src\": { \"type\": \"testsrc\", \"params\": { \"rate\": \"fast\" } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' param 'rate': expected rational (\"30/1\", \"30000/1001\" or a number), found \"fast\""),
        Case(name: "missing required param", graph: "{ \"nodes\": { \(src), \"out\": { \"type\": \"y4msink\" } }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'out' (y4msink): missing required param 'path' (path)"),
        Case(name: "unconnected input", graph: "{ \"nodes\": { \(src), \(sink) }, \"chains\": [] }", status: 2,
             message: "error: input 'in' of node 'out' (y4msink) is not connected (it accepts video/raw yuv420p|yuv422p|yuv444p|gray)"),
        Case(name: "unknown node in chain", graph: "{ \"nodes\": { \(src), \(sink) }, \"chains\": [[\"src\", \"otu\"]] }", status: 2,
             message: "error: chain refers to unknown node 'otu'; did you mean 'out'?"),
        Case(name: "bad reference", graph: "{ \"nodes\": { \(src), \(sink) }, \"chains\": [[\"src\", \"out.in.x\"]] }", status: 2,
             message: "error: \"out.in.x\" is not a node reference \"id\" or \"id.port\""),
        Case(name: "unknown port", graph: "{ \"nodes\": { \(src), \(sink) }, \"chains\": [[\"src\", \"out.video\"]] }", status: 2,
             message: "error: node 'out' (y4msink) has no input 'video'; inputs: in"),
        Case(name: "chain into a source", graph: "{ \"nodes\": { \(src), \"src2\": { \"type\": \"testsrc\" }, \(sink) }, \"chains\": [[\"src\", \"src2\"], [\"src2\", \"out\"]] }", status: 2,
             message: "error: node 'src2' (testsrc) is a source and takes no input, but 'src' is chained into it"),
        Case(name: "chain out of a sink", graph: "{ \"nodes\": { \(src), \(sink), \"n\": { \"type\": \"nullsink\" } }, \"chains\": [[\"src\", \"out\", \"n\"]] }", status: 2,
             message: "error: node 'out' (y4msink) has no outputs, so it cannot feed 'n'"),
        Case(name: "input connected twice", graph: "{ \"nodes\": { \(src), \"src2\": { \"type\": \"testsrc\" }, \(sink) }, \"chains\": [[\"src\", \"out\"], [\"src2\", \"out\"]] }", status: 2,
             message: "error: input 'in' of node 'out' is connected twice (an input takes one edge; fan-out is from outputs)"),
        Case(name: "formats cannot meet", graph: "{ \"nodes\": { \"src\": { \"type\": \"sine\" }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: edge 'src.out' → 'out.in': output 'out' of 'src' (sine) carries raw audio, but input 'in' of 'out' (y4msink) takes raw video"),
        Case(name: "chain too short", graph: "{ \"nodes\": { \(src) }, \"chains\": [[\"src\"]] }", status: 2,
             message: "error: a chain needs at least two node references, found 1"),
        Case(name: "node id not an identifier", graph: "{ \"nodes\": { \"my src\": { \"type\": \"testsrc\" } }, \"chains\": [] }", status: 2,
             message: "error: node id \"my src\" is not an identifier (letters, digits, '_' and '-', not starting with a digit)"),
        Case(name: "node without type", graph: "{ \"nodes\": { \"src\": { \"params\": {} } }, \"chains\": [] }", status: 2,
             message: "error: node 'src': missing \"type\""),
        Case(name: "duplicate id", graph: "{ \"nodes\": { \(src), \(src) }, \"chains\": [] }", status: 2,
             message: "error: invalid JSON: duplicate key \"src\" in the object opened at 1:12"),
        Case(name: "missing input file", graph: "{ \"nodes\": { \"src\": { \"type\": \"y4msrc\", \"params\": { \"path\": \"nope.y4m\" } }, \(sink) }, \"chains\": [[\"src\", \"out\"]] }", status: 2,
             message: "error: node 'src' (y4msrc): cannot open 'DIR/nope.y4m': No such file or directory"),
        Case(name: "unwritable output", graph: "{ \"nodes\": { \(src), \"out\": { \"type\": \"y4msink\", \"params\": { \"path\": \"/proc/version/x.y4m\" } } }, \"chains\": [[\"src\", \"out\"]] }", status: 1,
             message: "error: node 'out' (y4msink): cannot write '/proc/version/x.y4m': Not a directory"),
        Case(name: "output is a directory", graph: "{ \"nodes\": { \(src), \"out\": { \"type\": \"y4msink\", \"params\": { \"path\": \".\" } } }, \"chains\": [[\"src\", \"out\"]] }", status: 1,
             message: "error: node 'out' (y4msink): cannot write 'DIR/.': it is a directory"),
    ]

    @Test(arguments: graphCases)
    func malformedGraph(_ c: Case) throws {
        let dir = CLI.tempDir()
        let g = CLI.writeGraph(c.graph, in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == c.status, "\(c.name): \(r.stderr)")
        let expected = c.message.replacingOccurrences(of: "DIR", with: dir)
        #expect(r.stderr.contains(expected), "\(c.name): expected «\(expected)» in «\(r.stderr)»")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.y4m"), "\(c.name): partial output left behind")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { $0.hasPrefix(".") } ?? []
        #expect(leftovers.isEmpty, "\(c.name): temporary files left: \(leftovers)")
    }

    struct Y4MCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var message: String
        var testDescription: String { name }
    }

    static func y4m(_ header: String, frames: Int, frameBytes: Int) -> [UInt8] {
        var b = Array((header + "\n").utf8)
        for _ in 0..<frames { b += Array("FRAME\n".utf8) + [UInt8](repeating: 128, count: frameBytes) }
        return b
    }

    static let y4mCases: [Y4MCase] = [
        Y4MCase(name: "empty file", bytes: [], message: "is empty: expected a YUV4MPEG2 header"),
        Y4MCase(name: "not y4m", bytes: Array("RIFF....WAVEfmt ".utf8), message: "is not a YUV4MPEG2 file: it starts with \"RIFF....WAVEfmt \", expected \"YUV4MPEG2 \""),
        Y4MCase(name: "no width", bytes: y4m("YUV4MPEG2 H4 F25:1", frames: 1, frameBytes: 24), message: "the YUV4MPEG2 header has no width (W)"),
        Y4MCase(name: "bad height", bytes: y4m("YUV4MPEG2 W4 H-4 F25:1", frames: 1, frameBytes: 24), message: "bad height 'H-4' in the YUV4MPEG2 header"),
        Y4MCase(name: "bad rate", bytes: y4m("YUV4MPEG2 W4 H4 F25", frames: 1, frameBytes: 24), message: "bad frame rate 'F25' in the YUV4MPEG2 header (expected F<num>:<den>, e.g. F30:1)"),
        Y4MCase(name: "interlaced", bytes: y4m("YUV4MPEG2 W4 H4 F25:1 It", frames: 1, frameBytes: 24), message: "interlaced Y4M ('It') is not supported; only progressive (Ip)"),
        Y4MCase(name: "10-bit", bytes: y4m("YUV4MPEG2 W4 H4 F25:1 C420p10", frames: 1, frameBytes: 48), message: "colour space 'C420p10' is not supported"),
        Y4MCase(name: "truncated last frame", bytes: Array(y4m("YUV4MPEG2 W4 H4 F25:1 C420jpeg", frames: 3, frameBytes: 24).dropLast(5)),
                message: "frame 2 is truncated: 19 of 24 bytes at byte 97"),
        Y4MCase(name: "bad frame marker", bytes: y4m("YUV4MPEG2 W4 H4 F25:1", frames: 1, frameBytes: 24) + Array("FRAM\n".utf8),
                message: "frame 1 at byte 52: expected \"FRAME\", found \"FRAM\""),
    ]

    @Test(arguments: y4mCases)
    func malformedY4M(_ c: Y4MCase) throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/in.y4m", contents: Data(c.bytes)), "could not write the input")
        let g = CLI.writeGraph("{ \"nodes\": { \"src\": { \"type\": \"y4msrc\", \"params\": { \"path\": \"in.y4m\" } }, \(Self.sink) }, \"chains\": [[\"src\", \"out\"]] }", in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status != 0)
        #expect(r.stderr.contains(c.message), "\(c.name): expected «\(c.message)» in «\(r.stderr)»")
        #expect(r.stderr.contains("'\(dir)/in.y4m'"), "\(c.name): the message should name the file")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.y4m"), "\(c.name): partial output left behind")
    }

    @Test func truncatedRawNamesFrameAndOffset() throws {
        let dir = CLI.tempDir()
        #expect(FileManager.default.createFile(atPath: dir + "/in.raw", contents: Data(count: 6 * 4 * 2 + 10)), "could not write the input")
        let g = CLI.writeGraph("{ \"nodes\": { \"src\": { \"type\": \"rawsrc\", \"params\": { \"path\": \"in.raw\", \"width\": 4, \"height\": 4 } }, \"out\": { \"type\": \"rawsink\", \"params\": { \"path\": \"out.raw\" } } }, \"chains\": [[\"src\", \"out\"]] }", in: dir)
        let r = try CLI.mediagraph("run", "--quiet", g)
        #expect(r.status == 1)
        #expect(r.stderr.contains("error: node 'src' (rawsrc): '\(dir)/in.raw': frame 2 is truncated: 10 of 24 bytes at byte 48"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.raw"))
    }
}
