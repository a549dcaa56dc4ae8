import MediaGraphCore
import Testing

/// Inputs `make fuzz` found that crashed (Fuzz/README in the top-level README, "Fuzzing and
/// sanitizers"), each kept with what must happen now.
@Suite struct FuzzFindingsTests {
    /// fuzz-time: a decimal rate whose whole part overflows 64 bits once scaled by its decimal
    /// places (−9222933726854775 × 10^5) trapped in `Rational(parsing:)`.
    @Test func decimalRateWhoseScaledWholePartOverflows() throws {
        let text = "-9222933726854775.97807"
        #expect(Rational.parse(text) == .failure(.tooManyDigits))
        #expect(Rational(parsing: text) == nil)
        let node = NodeTypeInfo(name: "t-rate", doc: "", category: .source, params: [.rational("rate", default: "25/1", doc: "")])
        let (_, problems) = ParamValidator.validate(node: "src", type: node, given: try JSONParser.parse(#"{"rate": "\#(text)"}"#),
                                                    baseDirectory: ".", file: "g.json")
        #expect(problems.map(\.description) == [
            #"g.json:1:10: error: node 'src' param 'rate': expected rational ("30/1", "30000/1001" or a number), found "-9222933726854775.97807" (more than 18 significant digits or decimal places)"#,
        ])
    }
}
