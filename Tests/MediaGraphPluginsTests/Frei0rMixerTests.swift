import Foundation
import Testing

/// frei0r mixers (two and three inputs, `f0r_update2`) as nodes: Debian's `addition`,
/// `multiply` and `RGB` against the formulas in their frei0r sources (and `addition` against
/// ffmpeg's `blend=all_mode=addition`, the same formula), a test mixer compiled here for what
/// the host passes (time, params, packed rows, synchronised frames), and bad input.
@Suite struct Frei0rMixerTests {
    static var available: Bool { Frei0rTests.available }

    /// `frames` rgba frames of one of ffmpeg's test sources (different sources give different
    /// pictures to mix).
    static func frames(_ dir: String, _ source: String, width: Int, height: Int, rate: Int = 25, frames: Int) throws -> String {
        let path = "\(dir)/\(source)-\(width)x\(height)-\(rate).rgba"
        let r = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=s=\(width)x\(height):r=\(rate)",
                                        "-frames:v", "\(frames)", "-pix_fmt", "rgba", "-f", "rawvideo", path])
        #expect(r.status == 0, "ffmpeg: \(r.stderr)")
        return path
    }

    /// A graph: one rawsrc per input → `type` (ports in, in1, in2) → rawsink.
    static func mixGraph(_ type: String, params: String = "{}", inputs: [(path: String, width: Int, height: Int, rate: Int)], output: String) -> String {
        var nodes = "", chains: [String] = []
        for (k, i) in inputs.enumerated() {
            nodes += "\"s\(k)\": {\"type\": \"rawsrc\", \"params\": {\"path\": \"\(i.path)\", \"width\": \(i.width), \"height\": \(i.height), \"format\": \"rgba\", \"rate\": \"\(i.rate)\"}},\n"
            chains.append("[\"s\(k)\", \"m.\(k == 0 ? "in" : "in\(k)")\"]")
        }
        nodes += "\"m\": {\"type\": \"\(type)\", \"params\": \(params)},\n\"o\": {\"type\": \"rawsink\", \"params\": {\"path\": \"\(output)\"}}"
        chains.append("[\"m\", \"o\"]")
        return "{\"nodes\": {\(nodes)}, \"chains\": [\(chains.joined(separator: ", "))]}"
    }

    /// Runs `mixGraph` and returns the output bytes.
    static func mix(_ dir: String, _ type: String, params: String = "{}", inputs: [(path: String, width: Int, height: Int, rate: Int)],
                    env: [String: String] = [:]) throws -> [UInt8] {
        Tool.write(mixGraph(type, params: params, inputs: inputs, output: dir + "/out.rgba"), to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", "-q", dir + "/g.json"], env: env)
        #expect(r.status == 0, "mediagraph: \(r.stderr)")
        return Tool.read(dir + "/out.rgba")
    }

    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        a.count != b.count ? -2 : zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
    }

    /// frei0r's addition.cpp: each colour byte min(255, a + b), alpha min(a, b). 72 pixels per
    /// row (288 bytes, padded to 320 in our pools) makes the node repack rows for frei0r.
    @Test(.enabled(if: available), arguments: [64, 72])
    func additionMatchesItsFormula(width: Int) throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let h = 48
        let a = try Self.frames(dir, "testsrc2", width: width, height: h, frames: 3)
        let b = try Self.frames(dir, "testsrc", width: width, height: h, frames: 3)
        let out = try Self.mix(dir, "frei0r.addition", inputs: [(a, width, h, 25), (b, width, h, 25)])
        let x = Tool.read(a), y = Tool.read(b)
        let expected = (0..<x.count).map { i in i % 4 == 3 ? min(x[i], y[i]) : UInt8(min(255, Int(x[i]) + Int(y[i]))) }
        #expect(out == expected, "addition differs from min(255, a + b) at byte \(Self.firstDifference(out, expected))")
        #expect(out != x && out != y)
    }

    /// ffmpeg's blend=all_mode=addition computes min(255, a + b) on every plane; on opaque
    /// inputs (frei0r takes min of the alphas, ffmpeg saturates: 255 either way) the frames are
    /// identical.
    @Test(.enabled(if: available))
    func additionMatchesFFmpegBlend() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (96, 64)
        let a = try Self.frames(dir, "testsrc2", width: w, height: h, frames: 3)
        let b = try Self.frames(dir, "smptebars", width: w, height: h, frames: 3)
        let out = try Self.mix(dir, "frei0r.addition", inputs: [(a, w, h, 25), (b, w, h, 25)])
        let f = try Tool.run("ffmpeg", ["-v", "error", "-y",
                                        "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-r", "25", "-i", a,
                                        "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(w)x\(h)", "-r", "25", "-i", b,
                                        "-filter_complex", "[0][1]blend=all_mode=addition", "-pix_fmt", "rgba", "-f", "rawvideo", dir + "/ref.rgba"])
        #expect(f.status == 0, "ffmpeg: \(f.stderr)")
        let ref = Tool.read(dir + "/ref.rgba")
        #expect(out.count == w * h * 4 * 3)
        #expect(out == ref, "frei0r.addition differs from ffmpeg's blend=all_mode=addition at byte \(Self.firstDifference(out, ref))")
    }

    /// frei0r's multiply.cpp: GIMP's INT_MULT, round(a × b / 255), on colour; alpha min(a, b).
    /// (ffmpeg's blend multiply truncates a × b / 255 instead, so it is not the reference here.)
    @Test(.enabled(if: available))
    func multiplyMatchesItsFormula() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (64, 48)
        let a = try Self.frames(dir, "testsrc2", width: w, height: h, frames: 2)
        let b = try Self.frames(dir, "rgbtestsrc", width: w, height: h, frames: 2)
        let out = try Self.mix(dir, "frei0r.multiply", inputs: [(a, w, h, 25), (b, w, h, 25)])
        let x = Tool.read(a), y = Tool.read(b)
        let expected = (0..<x.count).map { i -> UInt8 in
            if i % 4 == 3 { return min(x[i], y[i]) }
            let t = Int(x[i]) * Int(y[i]) + 0x80
            return UInt8(((t >> 8) + t) >> 8)
        }
        #expect(out == expected, "multiply differs from INT_MULT(a, b) at byte \(Self.firstDifference(out, expected))")
        // INT_MULT is a × b / 255 rounded to nearest
        #expect(zip(x, y).allSatisfy { a, b in let t = Int(a) * Int(b) + 0x80; return ((t >> 8) + t) >> 8 == Int((Double(a) * Double(b) / 255).rounded()) })
    }

    /// frei0r's RGB.c, a three-input mixer: R = (r + g + b) / 3 of the first input, G of the
    /// second, B of the third (integer division), alpha 255.
    @Test(.enabled(if: available))
    func rgbThreeInputMixerMatchesItsFormula() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (64, 48)
        let ins = try ["testsrc2", "testsrc", "smptebars"].map { try Self.frames(dir, $0, width: w, height: h, frames: 2) }
        let out = try Self.mix(dir, "frei0r.RGB", inputs: ins.map { ($0, w, h, 25) })
        let src = ins.map(Tool.read)
        var expected = [UInt8](repeating: 255, count: src[0].count)
        for p in stride(from: 0, to: expected.count, by: 4) {
            for c in 0..<3 { expected[p + c] = UInt8((Int(src[c][p]) + Int(src[c][p + 1]) + Int(src[c][p + 2])) / 3) }
        }
        #expect(out == expected, "RGB differs from its formula at byte \(Self.firstDifference(out, expected))")
    }

    /// What the host hands f0r_update2, seen by a mixer compiled here: `time` in seconds of the
    /// output frame, the graph's param, packed rows (72 pixels: padded in our pools), in1 at
    /// 50 fps synchronised to in's 25 fps (output frame k shows in1's frame 2k), no third frame.
    @Test(.enabled(if: available))
    func updateTwoGetsTimeParamsAndSynchronisedFrames() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lib = dir + "/lib"
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        Tool.write(Frei0rMixerSource.text, to: dir + "/tmix.c")
        let cc = try Tool.run("cc", ["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-I", Tool.root + "/Sources/CMediaGraphPlugin/include",
                                     dir + "/tmix.c", "-o", lib + "/tmix.so", "-lm"])
        #expect(cc.status == 0, "cc: \(cc.stderr)")
        let (w, h) = (72, 48)
        let a = try Self.frames(dir, "testsrc2", width: w, height: h, frames: 3)
        let b = try Self.frames(dir, "testsrc", width: w, height: h, rate: 50, frames: 6)
        let d = try Tool.mediagraph(["nodes", "frei0r.tmix"], env: ["FREI0R_PATH": lib])
        #expect(d.out.contains("level: number"), "\(d.out)")
        #expect(d.out.contains("end_1: number"), "a frei0r param named like a sync param is renamed: \(d.out)")
        let out = try Self.mix(dir, "frei0r.tmix", params: #"{"level": 0.25}"#, inputs: [(a, w, h, 25), (b, w, h, 50)], env: ["FREI0R_PATH": lib])
        let frame = w * h * 4
        let second = Tool.read(b)
        #expect(out.count == frame * 3)
        guard out.count == frame * 3 else { return }
        for k in 0..<3 {
            let o = Array(out[k * frame..<(k + 1) * frame])
            func word(_ i: Int) -> UInt32 { o[i * 4..<i * 4 + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
            #expect(word(0) == UInt32(40 * k), "frame \(k): time \(word(0)) ms, expected \(40 * k)")
            #expect(word(1) == 250 | UInt32(w) << 16, "frame \(k): level/width word \(String(word(1), radix: 16))")
            let rest = Array(second[2 * k * frame + 8..<(2 * k + 1) * frame])
            #expect(Array(o[8...]) == rest, "frame \(k) does not show in1's frame \(2 * k)")
        }
    }

    /// An input shifted by `offsets` has no frame before it starts: the mixer gets zeros
    /// (transparent black) for it, so addition shows the other input with alpha min(a, 0) = 0.
    @Test(.enabled(if: available))
    func inputNotStartedYetIsZeros() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (w, h) = (64, 48)
        let a = try Self.frames(dir, "testsrc2", width: w, height: h, frames: 4)
        let b = try Self.frames(dir, "testsrc", width: w, height: h, frames: 4)
        let out = try Self.mix(dir, "frei0r.addition", params: #"{"offsets": [0, 0.08]}"#, inputs: [(a, w, h, 25), (b, w, h, 25)])
        let x = Tool.read(a), y = Tool.read(b), frame = w * h * 4
        var expected: [UInt8] = []
        for k in 0..<4 {
            for i in 0..<frame {
                let p = x[k * frame + i], q: UInt8 = k < 2 ? 0 : y[(k - 2) * frame + i]
                expected.append(i % 4 == 3 ? min(p, q) : UInt8(min(255, Int(p) + Int(q))))
            }
        }
        #expect(out == expected, "differs at byte \(Self.firstDifference(out, expected))")
    }

    /// Inputs of another size or pixel format meet through visible inserted nodes; raw audio on
    /// a mixer input is a validation error naming the node, the port and both kinds.
    @Test(.enabled(if: available))
    func mismatchedInputsGetVisibleConvertersOrAnError() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Tool.write(#"""
        {"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 2}},
                   "b": {"type": "testsrc", "params": {"width": 80, "height": 40, "frames": 2}},
                   "m": {"type": "frei0r.screen"}, "o": {"type": "nullsink"}},
         "chains": [["a", "m.in"], ["b", "m.in1"], ["m", "o"]]}
        """#, to: dir + "/g.json")
        let v = try Tool.mediagraph(["validate", dir + "/g.json"])
        #expect(v.status == 0, "\(v.stderr)")
        #expect(v.out.contains("inserted 'auto_scale_m_in1' (scale): rgba 80x40 → rgba 64x48 before 'm.in1'"), "\(v.out)")
        #expect(v.out.contains("inserted 'auto_convert_m_in' (convert): yuv420p → rgba before 'm.in'"), "\(v.out)")
        let r = try Tool.mediagraph(["run", "-q", dir + "/g.json"])
        #expect(r.status == 0, "\(r.stderr)")
        Tool.write(#"""
        {"nodes": {"a": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 2}},
                   "b": {"type": "sine"}, "m": {"type": "frei0r.screen"}, "o": {"type": "nullsink"}},
         "chains": [["a", "m.in"], ["b", "m.in1"], ["m", "o"]]}
        """#, to: dir + "/bad.json")
        let bad = try Tool.mediagraph(["validate", dir + "/bad.json"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("edge 'b.out' → 'm.in1': output 'out' of 'b' (sine) carries raw audio, but input 'in1' of 'm' (frei0r.screen) takes raw video"), "\(bad.stderr)")
    }

    /// A rotated input is turned upright before it is mixed, as ffmpeg autorotates every input:
    /// addition onto black shows the phone clip as ffmpeg's autorotated decode (through rgba
    /// and back, about 40 dB; mixed sideways and scaled to fit it would be far off).
    @Test(.enabled(if: available))
    func aRotatedInputIsMixedUpright() throws {
        let dir = Tool.tempDir()
        for args in [["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-t", "0.4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "plain.mp4"],
                     ["-i", "plain.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", "rot.mp4"],
                     ["-f", "lavfi", "-i", "color=black:size=120x160:rate=25", "-t", "0.4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "black.mp4"]] {
            let r = try Tool.run("ffmpeg", ["-v", "error", "-y"] + args, cwd: dir)
            #expect(r.status == 0, "ffmpeg: \(r.stderr)")
        }
        Tool.write("""
        { "nodes": { "a": { "type": "filesrc", "params": { "path": "\(dir)/black.mp4" } }, "b": { "type": "filesrc", "params": { "path": "\(dir)/rot.mp4" } },
                     "m": { "type": "frei0r.addition" }, "o": { "type": "y4msink", "params": { "path": "\(dir)/ours.y4m" } } },
          "chains": [["a.video", "m.in"], ["b.video", "m.in1"], ["m", "o"]] }
        """, to: dir + "/g.json")
        let r = try Tool.mediagraph(["run", dir + "/g.json"])
        #expect(r.status == 0, "mediagraph: \(r.stderr)")
        #expect(r.stderr.contains("inserted 'auto_rotate_m_in1' (rotate)") && !r.stderr.contains("auto_rotate_m_in'"), "\(r.stderr)")
        try Tool.run("ffmpeg", ["-v", "error", "-y", "-i", "rot.mp4", "-f", "yuv4mpegpipe", "theirs.y4m"], cwd: dir)
        let psnr = try Tool.run("ffmpeg", ["-i", "ours.y4m", "-i", "theirs.y4m", "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-"], cwd: dir).stderr
        let least = psnr.range(of: "min:").flatMap { Double(psnr[$0.upperBound...].prefix { "0123456789.inf".contains($0) }) } ?? 0
        #expect(least > 35, "PSNR against ffmpeg's autorotated frames: \(least) dB at the least (\(psnr.suffix(200)))")
    }
}
