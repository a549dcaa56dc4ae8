import Foundation
import Testing

/// The aac encoder codes the loudspeakers the input names, not the default order for its channel
/// count: hexagonal is not 5.1 (its back-left would become the LFE) and quad is not 4.0. Layouts
/// AAC has no number for go in a program config element, as ffmpeg's encoder writes them. The
/// reference is ffmpeg's own transcode at the same bitrate: its layout (ffprobe) and each
/// channel's level (astats; an LFE channel is coded only up to its low band, so a tone there
/// comes out far quieter in both). The WAV comes through filesrc (libavformat) and through wavsrc
/// (our reader of the extensible header's speaker mask; at most 8 channels).
@Suite struct AACChannelLayoutTests {
    /// Each channel's RMS level in dB, by ffmpeg's astats.
    static func levels(_ file: String) throws -> [Double] {
        let log = try CLI.run("ffmpeg", ["-i", file, "-af", "astats=measure_overall=none:measure_perchannel=RMS_level", "-f", "null", "-"]).stderr
        return log.split(separator: "\n").filter { $0.contains("RMS level dB:") }
            .compactMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
    }

    @Test(arguments: [("hexagonal", "filesrc"), ("quad", "filesrc"), ("3.1", "filesrc"), ("hexadecagonal", "filesrc"),
                      ("hexagonal", "wavsrc"), ("quad", "wavsrc"), ("3.1", "wavsrc")])
    func everyChannelStaysOnItsLoudspeaker(layout: String, source: String) throws {
        let dir = CLI.tempDir()
        let count = ["hexagonal": 6, "quad": 4, "3.1": 4, "hexadecagonal": 16][layout]!
        // channel k at (k + 1) / 20 of one tone, so a channel moved or dropped shows in its level
        let pan = (0..<count).map { "c\($0)=\(Double($0 + 1) / 20)*c0" }.joined(separator: "|")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2:sample_rate=48000",
                               "-af", "pan=\(layout)|\(pan)", "-c:a", "pcm_s16le", dir + "/in.wav"])
        let g = CLI.writeGraph("""
        { "nodes": { "in": { "type": "\(source)", "params": { "path": "in.wav" } }, "aenc": { "type": "aac", "params": { "bitrate": 384 } },
                     "mux": { "type": "mp4", "params": { "path": "ours.mp4" } }, "adts": { "type": "adtssink", "params": { "path": "ours.aac" } } },
          "chains": [["\(source == "wavsrc" ? "in" : "in.audio")", "aenc", "mux.audio"], ["aenc", "adts"]] }
        """, in: dir)
        let r = try CLI.mediagraph("run", g)
        #expect(r.status == 0, "\(r.stderr)")
        try CLI.run("ffmpeg", ["-v", "error", "-y", "-i", dir + "/in.wav", "-c:a", "aac", "-b:a", "384k", dir + "/theirs.mp4"])
        func probed(_ f: String) throws -> String {
            try CLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=channels,channel_layout", "-of", "csv=p=0", f]).out
        }
        #expect(try probed(dir + "/ours.mp4") == probed(dir + "/theirs.mp4"))
        // ADTS has no AudioSpecificConfig: a layout without a number needs its program config
        // element in the first frame, or no decoder knows the channels
        #expect(try probed(dir + "/ours.aac") == probed(dir + "/theirs.mp4"))
        let decoded = try CLI.run("ffmpeg", ["-v", "error", "-i", dir + "/ours.aac", "-f", "null", "-"])
        #expect(decoded.status == 0 && decoded.stderr.isEmpty, "ffmpeg decoding our ADTS: \(decoded.stderr)")
        let theirs = try Self.levels(dir + "/theirs.mp4"), ours = try Self.levels(dir + "/ours.mp4")
        #expect(theirs.count == count && ours.count == count, "levels: ffmpeg's \(theirs), ours \(ours)")
        for (k, (a, b)) in zip(theirs, ours).enumerated() {
            #expect(abs(a - b) < 1, "channel \(k): \(b) dB, ffmpeg's transcode's is \(a) dB (all: \(ours) against \(theirs))")
        }
    }
}
