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

        let (packets, _) = try encodeTestFrames(encoder, width: width, height: height, count: count)
        checkTimestamps(packets, inputPTS: (0..<count).map(Int64.init))
        #expect(packets.contains { $0.dts < $0.pts }, "B-frames reorder")
        #expect(packets.filter(\.isKeyFrame).count >= 2)

        try writeFile(dir.path("ours.hevc"), ElementaryStream.annexB(packets))
        let probe = try probeStream(dir.path("ours.hevc"))
        #expect(probe["codec_name"] == "hevc")
        #expect(probe["width"] == "\(width)" && probe["height"] == "\(height)")
        #expect(probe["nb_read_frames"] == "\(count)")
        #expect(try decodeErrors(dir.path("ours.hevc")) == "")
    }
}
