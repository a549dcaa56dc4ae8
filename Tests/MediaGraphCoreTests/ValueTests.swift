import MediaGraphCore
import Testing

@Suite struct ValueTests {
    @Test func rationalParsing() {
        #expect(Rational(parsing: "30000/1001") == Rational(30000, 1001))
        #expect(Rational(parsing: "60/2") == Rational(30, 1))
        #expect(Rational(parsing: "29.97") == Rational(2997, 100))
        #expect(Rational(parsing: "25") == Rational(25, 1))
        #expect(Rational(parsing: "x/1") == nil)
        #expect(Rational(parsing: "1/0") == nil)
    }

    @Test func inverseOfZeroIsNoneNotATrap() {
        #expect(Rational(0, 1).inverse == nil)
        #expect(Rational(30000, 1001).inverse == Rational(1001, 30000))
        #expect(Rational(-25, 1).inverse == Rational(-1, 25))
        // a format made from a zero rate gets a usable time base, not a trap
        #expect(VideoFormat(pixelFormat: .rgba, width: 2, height: 2, frameRate: Rational(0, 1)).timeBase == Rational(1, 25))
    }

    @Test func mediaTimeComparesAcrossTimescales() {
        #expect(MediaTime(value: 1001, timescale: 30000) < MediaTime(value: 1, timescale: 25))
        #expect(MediaTime(value: 3, timescale: 90) == MediaTime(value: 1, timescale: 30))
        #expect(MediaTime(value: 1, timescale: 3).converted(to: 90000).value == 30000)
        #expect(MediaTime(value: 1, timescale: 3).converted(to: 1000).value == 333)
    }

    @Test func jsonParserKeepsPositions() throws {
        let v = try JSONParser.parse("{\n  \"a\": [1, 2.5, \"x\\u00e9\"],\n  \"b\": { \"c\": null }\n}")
        #expect(v["a"]?.location == SourceLocation(line: 2, column: 8))
        #expect(v["a"]?.arrayValue?[2].stringValue == "xé")
        #expect(v["b"]?["c"]?.location == SourceLocation(line: 3, column: 15))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "1:9: unexpected '}', expected a key in double quotes"),
        ("[1 2]", "1:4: unexpected '2', expected ',' or ']'"),
        ("{\"a\": tru}", "1:7: unexpected 't', expected a value"),
        ("\"abc", "1:5: unexpected end of file inside the string started at 1:1 (missing '\"'?)"),
        ("{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\" in the object opened at 1:1"),
        ("01", "1:1: invalid number: leading zeros are not allowed"),
        ("{} x", "1:4: unexpected 'x' after the end of the JSON value"),
    ])
    func jsonErrors(_ text: String, _ message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) should not parse")
        } catch let e as JSONSyntaxError {
            #expect(e.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func framePoolRowsAreAlignedAndReused() {
        let f = VideoFormat(pixelFormat: .yuv420p, width: 385, height: 289)
        var first: UnsafeMutablePointer<UInt8>?
        do {
            let b = WritableBuffer(frame: f)
            let p = b.planes!
            for i in 0..<3 {
                #expect(Int(bitPattern: p.data(i)) % 64 == 0)
                #expect(p.stride(i) % 64 == 0)
            }
            #expect(p.planeSize(1) == (193, 145))
            first = p.data0
        }
        let again = WritableBuffer(frame: f)
        #expect(again.planes!.data0 == first, "a released frame's memory is reused")
    }

    @Test func writableCopiesOnlyWhenShared() {
        let f = VideoFormat(pixelFormat: .gray, width: 4, height: 4)
        let a = WritableBuffer(frame: f).freeze()
        let keep = a
        let w = SampleBuffer.writable(a)
        #expect(w.planes!.data0 != keep.planes!.data0, "shared: a copy")
        var solo: SampleBuffer? = WritableBuffer(frame: f).freeze()
        let memory = solo!.planes!.data0
        let w2 = SampleBuffer.writable(solo.take()!)
        #expect(w2.planes!.data0 == memory, "unique: the same memory")
    }

    @Test func closestNames() {
        #expect(ClosestName.find("widht", in: ["width", "height"]) == "width")
        #expect(ClosestName.find("zzzzzz", in: ["width", "height"]) == nil)
        // a swap of two letters is one edit; a short word two edits away is no typo (QA:
        // 'pad' was offered 'aac', 'fps' 'mp4', 'hls' 'hue')
        #expect(ClosestName.find("otu", in: ["out", "in"]) == "out")
        #expect(ClosestName.find("sepai", in: ["sepia", "scale"]) == "sepia")
        #expect(ClosestName.find("pad", in: ["aac", "mp4", "hue"]) == nil)
        #expect(ClosestName.find("fps", in: ["aac", "mp4", "hue"]) == nil)
        #expect(ClosestName.find("hls", in: ["aac", "mp4", "hue"]) == nil)
    }
}

@Suite struct TimeArithmeticLimitTests {
    @Test func lcmThatDoesNotFitIsNil() {
        #expect(Rational.lcm(4, 6) == 12)
        #expect(Rational.lcm(Int64.max, Int64.max - 1) == nil)
    }

    @Test func sumOfTimesInCoprimeHugeTimescalesDoesNotTrap() {
        // timescales whose lcm overflows 64 bits: the sum is taken in the finer one, rounded
        let a = MediaTime(value: 1, timescale: 2_147_483_647)
        let b = MediaTime(value: 1, timescale: 2_147_483_629 * 3)
        let s = a + b
        #expect(s.timescale == 2_147_483_629 * 3)
        #expect(abs(s.seconds - (1.0 / 2_147_483_647 + 1.0 / (2_147_483_629.0 * 3))) < 1e-9)
        // values saturate instead of wrapping
        let big = MediaTime(value: Int64.max - 1, timescale: 1) + MediaTime(value: 5, timescale: 1)
        #expect(big.value == Int64.max)
    }
}
