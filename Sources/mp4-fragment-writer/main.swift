// mp4-fragment-writer IN.h264 OUT.mp4: muxes an Annex B file into a fragmented MP4 (1 s
// fragments) and, after each fragment reaches the disk, prints "fragment N" and pauses, so a test
// can kill it with SIGKILL between fragments. Used only by the MP4 tests.
import Foundation
import MediaGraphMP4

let args = CommandLine.arguments
guard args.count == 3 else {
    FileHandle.standardError.write(Data("usage: mp4-fragment-writer IN.h264 OUT.mp4\n".utf8))
    exit(2)
}
do {
    let reader = try H264StreamReader(path: args[1])
    let muxer = try MP4Muxer(path: args[2], options: MP4MuxerOptions(fragmented: true, fragmentDuration: 1))
    var track: MP4TrackID?
    var reported = 0
    while let au = try reader.next() {
        if track == nil {
            track = try muxer.addVideoTrack(codec: .h264, width: reader.timer.width, height: reader.timer.height,
                                            timescale: reader.timer.timescale,
                                            configuration: reader.timer.configuration.map { .h264($0) })
        }
        try muxer.append(MP4Sample(data: au.data, pts: au.pts, dts: au.dts, duration: au.duration, isSync: au.isKeyFrame), to: track!)
        if muxer.completedFragments > reported {
            reported = muxer.completedFragments
            print("fragment \(reported)")
            fflush(nil)  // every output stream: the C global `stdout` is not concurrency-safe to name
            Thread.sleep(forTimeInterval: 3)
        }
    }
    try muxer.finish()
    print("done")
} catch {
    FileHandle.standardError.write(Data("mp4-fragment-writer: \(error)\n".utf8))
    exit(1)
}
