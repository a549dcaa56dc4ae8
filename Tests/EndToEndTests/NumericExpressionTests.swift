import Foundation
import MediaGraphCore
import Testing

/// `NumericExpression` against ffmpeg's own evaluator: `aevalsrc` computes each expression per
/// audio sample (t = n/rate) with libavutil's `av_expr`, written out as 64-bit floats.
@Suite struct NumericExpressionTests {
    static let expressions = [
        "-2^2", "2^3^2", "-t^2+3", "mod(-7,3)", "mod(t*10,3)", "(t*20-5)/4*2", "if(gt(t,0.35),t*100,-1)",
        "ifnot(lt(t,0.5),7)", "between(t,0.2,0.4)", "clip(t*10,2,6)", "min(t,0.3)+max(t,0.6)", "abs(0.45-t)",
        "floor(t*7.5)+ceil(t*3.3)+trunc(-t*4.4)+round(t*5-2.5)", "sqrt(t)*sin(t*PI)+cos(t)*exp(t)-log(t+1)",
        "hypot(3,t*4)+atan2(t,0.5)+tan(t)", "pow(2,t*8)", "eq(t*10,3)+gte(t,0.5)*2+lte(t,0.5)*4+not(t)",
        "1e2*t+.5", "if(lt(t,0.5),t)", "sgn(t-0.5)",
    ]

    @Test func valuesAreAVExprs() throws {
        let rate = 10
        // aevalsrc: one channel per expression; commas inside a filter argument are escaped
        let channels = Self.expressions.map { $0.replacingOccurrences(of: ",", with: "\\,") }.joined(separator: "|")
        let r = try CLI.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "aevalsrc=exprs='\(channels)':s=\(rate):d=1", "-f", "f64le", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = Array(r.stdout)
        let n = Self.expressions.count
        #expect(bytes.count == rate * n * 8)
        let parsed = try Self.expressions.map { try NumericExpression($0, variables: ["t"]) }
        for i in 0..<rate {
            let t = Double(i) / Double(rate)
            for (k, e) in parsed.enumerated() {
                let at = (i * n + k) * 8
                let theirs = Double(bitPattern: bytes[at..<at + 8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
                let ours = e.evaluate([t])
                #expect(ours == theirs || abs(ours - theirs) <= 1e-12 * max(1, abs(theirs)), "\(e) at t=\(t): ours \(ours), av_expr \(theirs)")
            }
        }
    }

    @Test func mistakesNameTheOffset() {
        func message(_ s: String) -> String {
            do { _ = try NumericExpression(s, variables: ["w", "t"]); return "" } catch { return "\(error)" }
        }
        #expect(message("w+") == "expected a number, a name or '(', found the end at offset 2 of 'w+'")
        #expect(message("w*(t") == "expected ')' at offset 4 of 'w*(t'")
        #expect(message("2 3").hasPrefix("expected an operator or the end, found '3' at offset 2"))
        #expect(message("foo(1)").hasPrefix("unknown function 'foo'"))
        #expect(message("between(t,1)") == "between takes 3 arguments, found 2 at offset 0 of 'between(t,1)'")
        #expect(message(String(repeating: "(", count: 70) + "1" + String(repeating: ")", count: 70)).hasPrefix("more than 64 nested parentheses"))
        #expect(message(String(repeating: "1+", count: 600) + "1").hasPrefix("the expression is longer than 1024 characters"))
    }
}
