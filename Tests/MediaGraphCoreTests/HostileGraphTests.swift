import Foundation
import MediaGraphCore
import Testing

/// Hand-made hostile graph text: each is refused with the exact message (line:column and the
/// limit), quickly, without a trap; values that pass validation are the values the node reads.
@Suite struct HostileGraphTests {
    /// Seconds a hostile input may take: scaled by MEDIAGRAPH_TEST_TIME_SCALE for the sanitizer
    /// builds (make test-sanitize), which run several times slower.
    static let timeScale = Double(ProcessInfo.processInfo.environment["MEDIAGRAPH_TEST_TIME_SCALE"] ?? "") ?? 1

    func jsonError(_ text: String) -> String? {
        do {
            _ = try JSONParser.parse(text)
            return nil
        } catch let e as JSONSyntaxError {
            return e.description
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"a": "\uD800"}"#, #"1:8: unpaired UTF-16 surrogate \uD800: a high surrogate (\uD800…\uDBFF) must be followed by a low one (\uDC00…\uDFFF)"#),
        (#"["x\uDBFFy"]"#, #"1:4: unpaired UTF-16 surrogate \uDBFF: a high surrogate (\uD800…\uDBFF) must be followed by a low one (\uDC00…\uDFFF)"#),
        (#""\uDC00""#, #"1:2: unpaired UTF-16 surrogate \uDC00: a low surrogate (\uDC00…\uDFFF) must follow a high one (\uD800…\uDBFF)"#),
        (#""\uD800\u0041""#, #"1:2: unpaired UTF-16 surrogate \uD800: it is followed by \u0041, not by a low surrogate (\uDC00…\uDFFF)"#),
        (#""\uD800\uD800""#, #"1:2: unpaired UTF-16 surrogate \uD800: it is followed by \uD800, not by a low surrogate (\uDC00…\uDFFF)"#),
        ("[1e400]", "1:2: number 1e400 is out of range: numbers must be finite (within ±1.7976931348623157e+308)"),
        ("-1e99999999999", "1:1: number -1e99999999999 is out of range: numbers must be finite (within ±1.7976931348623157e+308)"),
        ("\n  1" + String(repeating: "0", count: 200), "2:3: a number of 201 characters, more than the limit of 100"),
    ])
    func refusedWithPosition(_ text: String, _ message: String) {
        #expect(jsonError(text) == message)
    }

    @Test func surrogatePairStillDecodes() throws {
        #expect(try JSONParser.parse(#""\uD83D\uDE00 \u00e9""#).stringValue == "😀 é")
    }

    @Test func nestingIsBoundedAndFast() {
        #expect(jsonError(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)) == nil)
        #expect(jsonError(String(repeating: "[", count: 65)) == "1:65: nesting deeper than 64 levels of objects and arrays (the limit)")
        // half a million levels: refused at level 65, without recursing further
        let start = Date()
        #expect(jsonError(String(repeating: "{\"a\":", count: 500_000)) == "1:321: nesting deeper than 64 levels of objects and arrays (the limit)")
        #expect(Date().timeIntervalSince(start) < 2 * Self.timeScale)
    }

    @Test func sizeIsBounded() {
        let text = "[\"" + String(repeating: "x", count: JSONLimits.maxBytes) + "\"]"
        #expect(jsonError(text) == "1:4194305: the JSON text is 4194308 bytes, more than the limit of 4194304 bytes (4 MiB)")
    }

    /// 150 000 keys: the duplicate check is a set, not a scan of the keys so far (that took hours).
    @Test func manyKeysAreLinear() {
        var text = "{"
        for k in 0..<150_000 { text += "\"k\(k)\":0," }
        let start = Date()
        #expect(jsonError(text + "\"k7\":1}") == "1:\(text.utf8.count + 1): duplicate key \"k7\" in the object opened at 1:1")
        #expect(Date().timeIntervalSince(start) < 3 * Self.timeScale)
    }

    @Test func graphSizeIsBounded() {
        var nodes: [String] = []
        for k in 0...GraphLimits.maxNodes { nodes.append("\"n\(k)\": {\"type\": \"x\"}") }
        let text = "{\"nodes\": {" + nodes.joined(separator: ",") + "}, \"chains\": []}"
        #expect(throws: GraphValidationError.self) { try GraphFile.parse(text: text, file: "g.json") }
        do { _ = try GraphFile.parse(text: text, file: "g.json") } catch {
            #expect("\(error)" == "g.json:1:11: error: the graph has 1001 nodes, more than the limit of 1000")
        }
        let chain = "[" + Array(repeating: "\"a\"", count: GraphLimits.maxChainReferences + 1).joined(separator: ",") + "]"
        do { _ = try GraphFile.parse(text: "{\"nodes\": {\"a\": {\"type\": \"x\"}}, \"chains\": [\(chain)]}", file: "g.json") } catch {
            #expect("\(error)" == "g.json:1:43: error: the chains hold 10001 node references, more than the limit of 10000")
        }
    }

    // MARK: rates and other params

    static let rateNode = NodeTypeInfo(name: "t-rate", doc: "", category: .source,
                                       params: [.rational("rate", default: "25/1", doc: ""), .int("n", 0...10, default: 1, doc: ""),
                                                .path("path", default: "-", doc: "")])

    /// Validates `params` (JSON) of a t-rate node: the messages, or the rate the node would read.
    func validate(_ params: String) throws -> (Rational?, [String]) {
        let given = try JSONParser.parse(params)
        let (values, problems) = ParamValidator.validate(node: "src", type: Self.rateNode, given: given, baseDirectory: ".", file: "g.json")
        return (values.rational("rate"), problems.map(\.description))
    }

    @Test(arguments: [
        (#"{"rate": "-0.5"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "-0.5" (not positive)"#),
        (#"{"rate": -0.5}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found -0.5 (not positive)"#),
        (#"{"rate": "-9223372036854775808/1"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "-9223372036854775808/1" (out of range: numerator and denominator must fit in 64 bits)"#),
        (#"{"rate": "1/-9223372036854775808"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "1/-9223372036854775808" (out of range: numerator and denominator must fit in 64 bits)"#),
        (#"{"rate": "99999999999999999999/1"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "99999999999999999999/1" (out of range: numerator and denominator must fit in 64 bits)"#),
        (#"{"rate": "9223372036854775807.5"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "9223372036854775807.5" (more than 18 significant digits or decimal places)"#),
        (#"{"rate": "29.970000000000000000000000000000000001"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "29.970000000000000000000000000000000001" (more than 18 significant digits or decimal places)"#),
        (#"{"rate": "9223372036854775807/3"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "9223372036854775807/3" (9223372036854775807/3: numerator and denominator must be at most 2147483647 once reduced)"#),
        (#"{"rate": 1e20}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found 1e+20 (out of range: numerator and denominator must fit in 64 bits)"#),
        (#"{"rate": 29.9700000001}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found 29.9700000001 (299700000001/10000000000: numerator and denominator must be at most 2147483647 once reduced)"#),
        (#"{"rate": "1/0"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "1/0" (zero denominator)"#),
        (#"{"rate": "\#(String(repeating: "1", count: 65))"}"#, #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "\#(String(repeating: "1", count: 65))" (longer than 64 characters)"#),
        (#"{"n": 1e300}"#, "g.json:1:7: error: node 'src' param 'n': expected integer 0…10, found 1e+300"),
        (#"{"path": "a\u0000b"}"#, "g.json:1:10: error: node 'src' param 'path': expected path, found a path with a NUL character at byte 1"),
    ])
    func badParamIsRefused(_ params: String, _ message: String) throws {
        let (_, problems) = try validate(params)
        #expect(problems == [message])
    }

    /// What validation accepts is exactly what the node reads: never accepted and then dropped
    /// for the default (a numeric rate used to be), never with its sign lost.
    @Test(arguments: [
        (#"{"rate": 50}"#, Rational(50, 1)),
        (#"{"rate": 29.97}"#, Rational(2997, 100)),
        (#"{"rate": 2.5e1}"#, Rational(25, 1)),
        (#"{"rate": 0.001}"#, Rational(1, 1000)),
        (#"{"rate": "30000/1001"}"#, Rational(30000, 1001)),
        (#"{"rate": " 59.94 "}"#, Rational(2997, 50)),
        (#"{"rate": "+12.5"}"#, Rational(25, 2)),
        (#"{"rate": "1e-3"}"#, Rational(1, 1000)),
        (#"{"rate": "2147483647/2147483646"}"#, Rational(2147483647, 2147483646)),
    ])
    func acceptedRateIsTheRateUsed(_ params: String, _ expected: Rational) throws {
        let (rate, problems) = try validate(params)
        #expect(problems.isEmpty)
        #expect(rate == expected)
    }

    @Test func rationalNeverTraps() {
        #expect(Rational.parse("-0.5") == .success(Rational(-1, 2)))
        #expect(Rational.parse("-9223372036854775807/1") == .success(Rational(-Int64.max, 1)))
        #expect(Rational.parse("-9223372036854775808") == .failure(.tooManyDigits))
        #expect(Rational.parse("-9223372036854775808/1") == .failure(.outOfRange))
        #expect(Rational.parse("1e9999") == .failure(.outOfRange))
        #expect(Rational.parse("1e-19") == .failure(.tooManyDigits))
        #expect(Rational.parse("0e99999") == .failure(.outOfRange))
        #expect(Rational.parse("12.") == .failure(.notANumber))
        #expect(Rational.parse("--1") == .failure(.notANumber))
        #expect(Rational(Int64.min, -1).num == Int64.max)   // saturates instead of trapping
        #expect(Rational.gcd(Int64.min, 0) == Int64.max)
    }

    /// 200 000 unknown params: the first 20 described (with "did you mean"), the rest counted.
    @Test func manyUnknownParamsAreCounted() throws {
        let text = "{" + (0..<200_000).map { "\"p\($0)\": 1" }.joined(separator: ",") + "}"
        let start = Date()
        let (_, problems) = try validate(text)
        #expect(problems.count == 21)
        #expect(problems.last == "g.json:1:1: error: node 'src' (t-rate): 199980 more unknown params")
        #expect(Date().timeIntervalSince(start) < 3 * Self.timeScale)
    }

    /// `--set` values go through the same checks as the file's.
    @Test func setOverridesAreChecked() throws {
        let spec = try GraphFile.parse(text: #"{"nodes": {"src": {"type": "t-rate"}}, "chains": []}"#, file: "g.json",
                                       overrides: ["src.rate=-0.5", "src.n=1e999"])
        let params = spec.nodes[0].params
        let (_, problems) = ParamValidator.validate(node: "src", type: Self.rateNode, given: params, baseDirectory: ".", file: "g.json")
        #expect(problems.map(\.message) == [
            #"node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found -0.5 (not positive)"#,
            #"node 'src' param 'n': expected integer 0…10, found string "1e999""#,
        ])
    }
}
