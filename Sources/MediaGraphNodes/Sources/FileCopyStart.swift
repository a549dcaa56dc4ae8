import MediaGraphCodecs
import MediaGraphCore

/// A copied video stream starts on its first key frame, as ffmpeg's `-c copy` does (unless
/// `-copyinkf`): the pictures before it refer to pictures (and, in MPEG-TS, parameter sets)
/// that were never read, so a file starting with them does not play. A file cut in the middle
/// of a GOP (the tail of a Transport Stream) starts so. Decoders are still given those packets
/// (they drop what they cannot decode, as ffmpeg's decoder does), so decoding is unchanged;
/// audio is never held back (ffmpeg keeps it too: the video track then starts later).
struct FileCopyStart {
    /// Packets left out of the copy before the key frame.
    private(set) var dropped = 0
    /// The key frame's presentation time (port ticks), once seen.
    private(set) var keyFramePTS: Int64?
    /// Whether the dropped packets still go to decoders reading the same port.
    let decoded: Bool

    /// nil when there is nothing to hold back: not video, or not copied.
    init?(kind: StreamInfo.Kind, copied: Bool, decoded: Bool) {
        guard kind == .video, copied else { return nil }
        self.decoded = decoded
    }

    /// Whether `buffer` goes to the copies: false for a packet before the first key frame.
    mutating func admits(_ buffer: borrowing SampleBuffer) -> Bool {
        if keyFramePTS != nil { return true }
        guard buffer.flags.contains(.keyFrame) else {
            dropped += 1
            return false
        }
        keyFramePTS = buffer.pts
        return true
    }

    /// The run warning naming what the copy left out, nil when nothing was.
    func warning(stream: String, timeBase: Rational) -> String? {
        guard dropped > 0 else { return nil }
        let packets = "\(dropped) packet\(dropped == 1 ? "" : "s")"
        guard let key = keyFramePTS else {
            return "stream '\(stream)': dropped all \(packets) of the copy: none is a key frame (a copy must start on a key frame)"
        }
        return "stream '\(stream)': dropped \(packets) before the first key frame at \(FileStreamState.clock(key, timeBase)) (a copy must start on a key frame)"
    }
}

extension FileSource {
    /// Sends a packet of stream `s`, counted, leaving out of a copy what comes before the first
    /// key frame (`FileCopyStart`); a decoder reading the same port still gets it.
    func emit(_ buffer: consuming SampleBuffer, on s: FileStreamState, output: NodeOutput) throws {
        if s.copyStart?.admits(buffer) == false {
            if s.copyStart?.decoded == true {
                try output.sendSkippingCopies(consume buffer, port: s.port)
                s.sent += 1
            }
            return
        }
        try output.send(consume buffer, port: s.port)
        s.sent += 1
    }
}
