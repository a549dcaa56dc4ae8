import MediaGraphCore
import Testing

/// The `time` param type: every spelling, kept exact, and what is refused.
@Suite struct TimeValueTests {
    @Test(arguments: [
        ("00:01:05.2", Rational(652, 10)),
        ("1:05.2", Rational(652, 10)),
        ("65.2", Rational(652, 10)),
        ("65", Rational(65, 1)),
        ("2:00:00", Rational(7200, 1)),
        ("0.000000001", Rational(1, 1_000_000_000)),
        (" 12.5 ", Rational(25, 2)),
    ])
    func strings(_ text: String, _ seconds: Rational) {
        #expect(TimeValue(parsing: text) == .seconds(seconds))
    }

    @Test func numbersAndFrames() {
        #expect(TimeValue(json: .num(1.5)) == .seconds(Rational(3, 2)))
        #expect(TimeValue(json: .num(20)) == .seconds(Rational(20, 1)))
        #expect(TimeValue(json: .num(0.1)) == .seconds(Rational(1, 10)))
        #expect(TimeValue(json: .num(0.00001)) == .seconds(Rational(1, 100_000)))
        #expect(TimeValue(json: .str("frame:120")) == .frame(120))
        #expect(TimeValue.frame(30).seconds(frameRate: Rational(30000, 1001)) == Rational(1001, 1000))
        #expect(TimeValue.frame(30).seconds(frameRate: nil) == nil)
    }

    @Test(arguments: ["", "-1", "1:60", "1:00:60", "1:61:00", "1:2:3:4", "abc", "frame:", "frame:-2", "frame:1.5", "1.", ".5",
                      "1.1234567890", "1e3", "99999999999"])
    func refused(_ text: String) {
        #expect(TimeValue(parsing: text) == nil, "\(text)")
    }

    @Test func refusedJSON() {
        #expect(TimeValue(json: .num(-0.5)) == nil)
        #expect(TimeValue(json: .bool(true, nil)) == nil)
        #expect(ParamValidator.check(.str("1:75"), against: .time) == "\"1:75\"")
        #expect(ParamValidator.check(.bool(true, nil), against: .time) == "boolean true")
        #expect(ParamValidator.check(.str("frame:3"), against: .time) == nil)
    }

    @Test func clock() {
        #expect(TimeValue.clock(Rational(652, 10)) == "1:05.200")
        #expect(TimeValue.clock(Rational(1, 2)) == "0.500 s")
        #expect(TimeValue.clock(Rational(3661, 1)) == "1:01:01.000")
        #expect(TimeValue.clock(Rational(-1, 4)) == "-0.250 s")
    }
}
