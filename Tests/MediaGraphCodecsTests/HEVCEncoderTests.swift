import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Testing

@Suite struct HEVCEncoderTests {
    @Test func bFramesDrainAndFFprobeReadsTheStream() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let width = 192, height = 128, count = 30
        let encoder = try HEVCEncoder(settings: HEVCSettings(preset: "ultrafast", crf: 28, keyint: 12, bframes: 3, threads: 2,
                                                             x265Params: "rc-lookahead=8"),
                                      width: width, height: height, timeBase: Rational(1, 30), frameRate: Rational(30, 1))
        guard case .hevc(let config) = encoder.configuration else { Issue.record("not hevc"); return }
        #expect(config.vps.count == 1 && config.sps.count == 1 && config.pps.count == 1)

        let (packets, raw) = try encodeTestFrames(encoder, width: width, height: height, count: count)
        checkTimestamps(packets, inputPTS: (0..<count).map(Int64.init))
        #expect(packets.contains { $0.dts < $0.pts }, "B-frames reorder")
        #expect(packets.filter(\.isKeyFrame).count >= 2)

        try writeFile(dir.path("ours.hevc"), ElementaryStream.annexB(packets))
        let probe = try probeStream(dir.path("ours.hevc"))
        #expect(probe["codec_name"] == "hevc")
        #expect(probe["width"] == "\(width)" && probe["height"] == "\(height)")
        #expect(probe["nb_read_frames"] == "\(count)")
        #expect(try decodeErrors(dir.path("ours.hevc")) == "")

        try writeFile(dir.path("in.yuv"), raw)
        let r = try runTool("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)",
                                       "-framerate", "30", "-i", dir.path("in.yuv"),
                                       "-c:v", "libx265", "-preset", "ultrafast", "-crf", "28", "-g", "12", "-bf", "3",
                                       "-x265-params", "pools=2:log-level=error:rc-lookahead=8", "-f", "hevc", dir.path("ref.hevc")])
        #expect(r.status == 0, "\(r.stderr)")
        let diff = firstDifference(ElementaryStream.annexB(packets), try readFile(dir.path("ref.hevc")))
        #expect(diff == nil, "first difference at byte \(diff ?? -1)")
    }
}
