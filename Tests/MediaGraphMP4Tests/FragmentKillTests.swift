#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import MediaGraphMP4

/// A fragmented write killed with SIGKILL leaves a file that plays every completed fragment.
@Suite struct FragmentKillTests {
    @Test func killedWriterLeavesPlayableFragments() throws {
        let dir = try TempDir()
        defer { dir.remove() }
        let src = try Media.h264AAC(in: dir, seconds: 6)
        let writer = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("mp4-fragment-writer").path
        #expect(fileExists(writer), "built beside the test bundle")
        let out = dir.file("killed.mp4")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: writer)
        p.arguments = [src.h264, out]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        var text = ""
        while !text.contains("fragment 2\n") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        #expect(p.terminationReason == .uncaughtSignal)
        #expect(text.contains("fragment 2"))
        let fragments = try topLevelBoxes(out).filter { $0 == "moof" }.count
        #expect(fragments >= 2 && fragments < 6)
        #expect(try decodeErrors(out) == "")
        let frames = try frameMD5(out)
        #expect(frames.count == 25 * fragments)
        // Every frame that made it matches the original.
        #expect(Array(try frameMD5(src.mp4).prefix(frames.count)) == frames)
        if let play = try browserPlay(out, minFrames: frames.count) {
            #expect(play["playable"] as? Bool == true, "\(play)")
            #expect(intValue(play["totalVideoFrames"]) == frames.count, "\(play)")
        }
    }
}
