import Foundation
import Testing

/// frei0r effects run by mediagraph against the same effects run by ffmpeg's frei0r filter (an
/// independent host of the same plugin libraries), byte for byte, with non-default params of
/// every frei0r param type (double, bool, colour, position, string).
@Suite struct Frei0rTests {
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var params: String      // our JSON params
        var ffmpeg: String      // ffmpeg's filter_params: positional, '|'-separated
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "glow", params: #"{"blur": 0.5}"#, ffmpeg: "0.5"),
        Case(name: "tint0r", params: #"{"mapBlackTo": [0.1, 0.2, 0.6], "mapWhiteTo": [1, 0.9, 0.5], "tintAmount": 0.7}"#, ffmpeg: "0.1/0.2/0.6|1/0.9/0.5|0.7"),
        Case(name: "perspective", params: #"{"topLeft": [0.1, 0.05], "topRight": [0.9, 0.1]}"#, ffmpeg: "0.1/0.05|0.9/0.1"),
        Case(name: "colortap", params: #"{"table": "sepia"}"#, ffmpeg: "sepia"),
        Case(name: "bluescreen0r", params: #"{"color": [0.9, 0.1, 0.1], "distance": 0.4, "invert": true}"#, ffmpeg: "0.9/0.1/0.1|0.4|y"),
        Case(name: "three_point_balance", params: #"{"blackColor": [0.1, 0.1, 0.1], "grayColor": [0.5, 0.45, 0.5], "whiteColor": [0.9, 0.95, 0.9]}"#, ffmpeg: "0.1/0.1/0.1|0.5/0.45/0.5|0.9/0.95/0.9"),
        Case(name: "pixeliz0r", params: #"{"blockWidth": 0.1, "blockHeight": 0.2}"#, ffmpeg: "0.1|0.2"),
        Case(name: "threshold0r", params: #"{"threshold": 0.3}"#, ffmpeg: "0.3"),
        Case(name: "saturat0r", params: #"{"saturation": 0.7}"#, ffmpeg: "0.7"),
        Case(name: "vignette", params: #"{"aspect": 0.3, "clearCenter": 0.2, "soft": 0.7}"#, ffmpeg: "0.3|0.2|0.7"),
    ]

    static var available: Bool { FileManager.default.fileExists(atPath: "/usr/lib/frei0r-1/glow.so") || ProcessInfo.processInfo.environment["FREI0R_PATH"] != nil }

    func compare(_ c: Case, width: Int, height: Int) throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Tool.testFrames(dir, width: width, height: height, format: "rgba", frames: 3)
        let graph = dir + "/g.json"
        Tool.write(Tool.chainGraph(input: input, width: width, height: height, format: "rgba",
                                   filters: [("frei0r." + c.name, c.params)], output: dir + "/ours.rgba"), to: graph)
        let r = try Tool.mediagraph(["run", "-q", graph])
        #expect(r.status == 0, "mediagraph: \(r.stderr)")
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)", "-r", "25",
                                        "-i", input, "-vf", "frei0r=filter_name=\(c.name):filter_params=\(c.ffmpeg)",
                                        "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/ref.rgba"])
        #expect(f.status == 0, "ffmpeg: \(f.stderr)")
        let ours = Tool.read(dir + "/ours.rgba"), ref = Tool.read(dir + "/ref.rgba"), src = Tool.read(input)
        #expect(ours.count == width * height * 4 * 3)
        let same = ours == ref, changed = ours != src
        #expect(same, "frei0r.\(c.name): our output differs from ffmpeg's at byte \(zip(ours, ref).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
        #expect(changed, "frei0r.\(c.name) changed nothing: the comparison would prove nothing")
    }

    @Test(.enabled(if: available), arguments: cases)
    func sameAsFFmpeg(_ c: Case) throws {
        try compare(c, width: 320, height: 240)
    }

    /// Rows of 328 pixels (1312 bytes) are padded to 1344 in our frame pools, so the node repacks
    /// them for frei0r. ffmpeg cannot be the reference at that width: it hands frei0r its padded
    /// frames as they are (and frei0r reads them as packed rows), so its output is skewed. For
    /// effects that work pixel by pixel, a 328-pixel crop of the input must give the same crop of
    /// ffmpeg's output at 336 pixels (1344 bytes, unpadded in both hosts).
    @Test(.enabled(if: available), arguments: [Frei0rTests.cases[8], Frei0rTests.cases[7], Frei0rTests.cases[1]])
    func paddedRowsMatchACropOfFFmpeg(_ c: Case) throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let wide = try Tool.testFrames(dir, width: 336, height: 248, format: "rgba", frames: 2)
        let input = dir + "/in-328.rgba"
        let crop = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "336x248", "-i", wide,
                                           "-vf", "crop=328:248:0:0", "-f", "rawvideo", input])
        #expect(crop.status == 0, "\(crop.stderr)")
        Tool.write(Tool.chainGraph(input: input, width: 328, height: 248, format: "rgba",
                                   filters: [("frei0r." + c.name, c.params)], output: dir + "/ours.rgba"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", dir + "/g.json"])
        #expect(r.status == 0, "mediagraph: \(r.stderr)")
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "336x248", "-r", "25", "-i", wide,
                                        "-vf", "frei0r=filter_name=\(c.name):filter_params=\(c.ffmpeg),crop=328:248:0:0",
                                        "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/ref.rgba"])
        #expect(f.status == 0, "ffmpeg: \(f.stderr)")
        let ours = Tool.read(dir + "/ours.rgba"), ref = Tool.read(dir + "/ref.rgba"), src = Tool.read(input)
        let same = ours.count == 328 * 248 * 4 * 2 && ours == ref, changed = ours != src
        #expect(same, "frei0r.\(c.name) at 328x248 differs from ffmpeg's 336-pixel output cropped")
        #expect(changed)
    }

    @Test(.enabled(if: available))
    func sizeNotMultipleOf8IsAClearError() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try Tool.testFrames(dir, width: 100, height: 60, format: "rgba", frames: 1)
        let graph = dir + "/g.json"
        Tool.write(Tool.chainGraph(input: input, width: 100, height: 60, format: "rgba",
                                   filters: [("frei0r.glow", "{}")], output: dir + "/o.rgba"), to: graph)
        let r = try Tool.mediagraph(["run", "-q", graph])
        #expect(r.status != 0)
        #expect(r.stderr.contains("frame size 100x60 is not a multiple of 8"), "\(r.stderr)")
        #expect(r.stderr.contains("/glow.so"), "\(r.stderr)")
    }

    @Test(.enabled(if: available))
    func paramsAreListedWithTypesAndDefaults() throws {
        let r = try Tool.mediagraph(["nodes", "frei0r.tint0r"])
        #expect(r.status == 0)
        #expect(r.out.contains("mapBlackTo: array of 3 numbers"), "\(r.out)")
        // the plugin's own value is shown, not declared as a default (only given params are set)
        #expect(r.out.contains("tintAmount: number\n"), "\(r.out)")
        #expect(r.out.contains("plugin's value 0.25"), "\(r.out)")
        #expect(r.out.contains("frei0r param #0 \"Map black to\""), "\(r.out)")
        let p = try Tool.mediagraph(["plugins"])
        #expect(p.out.contains("frei0r.glow"))
        #expect(p.out.contains("skipped"))
    }
}
