import ArgumentParser
import Foundation
import MediaGraphCore
import MediaGraphNodes

struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Describe a media file: container, duration and each stream with the port a filesrc gives it (codec, size, pixel format, rate, colour, rotation, language).",
        discussion: "Exit 2 when the file is missing, unreadable or not media.")

    @Argument(help: "The media file.") var file: String
    @Flag(help: "Machine-readable JSON.") var json = false

    func run() throws {
        let probe: MediaProbe
        do {
            probe = try MediaProbe(path: file)
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(2)
        }
        Console.out(json ? probe.json.serialized(pretty: true) + "\n" : ProbeText.render(probe))
    }
}

/// The human-readable probe report.
enum ProbeText {
    static func render(_ p: MediaProbe) -> String {
        var head = "'\(p.path)': \(p.formatLongName) (\(p.formatName))"
        if let d = p.duration { head += ", " + clock(d) }
        if let s = p.startTime, s != 0 { head += ", starts at " + clock(s) }
        if p.bitRate > 0 { head += String(format: ", %.0f kb/s", Double(p.bitRate) / 1000) }
        var out = head + "\n"
        let width = max(9, (p.streams.compactMap(\.port).map(\.count).max() ?? 0) + 2)
        for s in p.streams {
            let port = (s.port ?? "-").padding(toLength: width, withPad: " ", startingAt: 0)
            out += "  \(port)stream \(s.index): \(describe(s))\n"
            if let n = s.note { out += "  \(String(repeating: " ", count: width))(no port: \(n))\n" }
        }
        if let t = p.tags["title"] { out += "  title: \(t)\n" }
        if let c = p.tags["creation_time"] { out += "  created: \(c)\n" }
        return out
    }

    static func describe(_ s: MediaProbe.Stream) -> String {
        var parts: [String] = []
        // a stream libavcodec has no codec for (a QuickTime timecode) is named by its tag
        var codec = s.codec == "none" && s.codecTag != nil ? "\(s.kind) '\(s.codecTag!)' (no codec)" : "\(s.kind) \(s.codec)"
        if let pr = s.profile { codec += " (\(pr))" }
        switch s.kind {
        case "video":
            codec += " \(s.width)x\(s.height)"
            if let n = s.nativePixelFormat {
                codec += " \(n)"
                if let pf = s.pixelFormat, pf != n { codec += " (decoded as \(pf))" }
            }
            parts.append(codec)
            if let r = s.averageFrameRate ?? s.realFrameRate { parts.append(rate(r) + " fps") }
            var colour: [String] = []
            if let v = s.colorRange { colour.append(v) }
            if let v = s.colorSpace { colour.append("matrix \(v)") }
            if let v = s.colorPrimaries { colour.append("primaries \(v)") }
            if let v = s.colorTransfer { colour.append("transfer \(v)") }
            if let v = s.chromaLocation { colour.append("chroma \(v)") }
            if !colour.isEmpty { parts.append(colour.joined(separator: " ")) }
            if let a = s.sampleAspect, a != Rational(1, 1) { parts.append("SAR \(a.num):\(a.den)") }
            if let r = s.rotation, r != 0 { parts.append("rotated \(r)°" + (s.mirrored ? " and mirrored" : "")) }
            if let f = s.fieldOrder, f != "progressive" { parts.append("interlaced (\(f))") }
        case "audio":
            codec += " \(s.sampleRate) Hz"
            codec += " " + (s.channelLayout ?? (s.channels == 1 ? "1 channel" : "\(s.channels) channels"))
            if let f = s.sampleFormat { codec += " \(f)" }
            parts.append(codec)
        default:
            parts.append(codec)
        }
        if let l = s.language { parts.append("language \(l)") }
        if let t = s.title { parts.append("\"\(t)\"") }
        if let d = s.duration { parts.append(clock(d)) }
        parts.append("time base \(s.timeBase.num)/\(s.timeBase.den)")
        return parts.joined(separator: ", ")
    }

    static func rate(_ r: Rational) -> String {
        r.den == 1 ? "\(r.num)" : String(format: "%.3f", r.doubleValue).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    static func clock(_ seconds: Double) -> String {
        TimeValue.clock(Rational(Int64((seconds * 1000).rounded()), 1000))
    }
}
