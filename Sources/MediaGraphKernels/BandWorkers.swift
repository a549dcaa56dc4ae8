import Dispatch
import Foundation

/// Worker threads that live for the whole process and run the row bands of one frame at a time.
///
/// `DispatchQueue.concurrentPerform` decides by itself how many threads join; on a loaded machine
/// it often ran both bands of a frame on the calling thread (2 threads as slow as 1). Parked
/// workers woken by a semaphore always take their band, as ffmpeg's slice threads do. Nothing is
/// allocated per frame.
final class BandWorkers: @unchecked Sendable {
    /// Workers for every core but the caller's (the caller runs band 0 itself).
    static let shared = BandWorkers(count: RowBands.coreCount - 1)

    private let busy = NSLock()                 // held by the one caller using the workers
    private let wake: [DispatchSemaphore]
    private let finished = DispatchSemaphore(value: 0)
    // The current job; written by the caller before it signals `wake`, read by workers after.
    private var body: ((Range<Int>) -> Void)?
    private var rows = 0
    private var bands = 0

    private init(count: Int) {
        wake = (0..<max(0, count)).map { _ in DispatchSemaphore(value: 0) }
        for i in wake.indices {
            let thread = Thread { [unowned self] in self.work(band: i + 1) }
            thread.name = "mediagraph-bands-\(i + 1)"
            thread.start()
        }
    }

    private func work(band: Int) {
        while true {
            wake[band - 1].wait()
            body?(rows * band / bands ..< rows * (band + 1) / bands)
            finished.signal()
        }
    }

    /// Runs `body` over `bands` bands of `0..<rows`, band 0 on the calling thread. Returns false
    /// (having run nothing) when the workers are busy with another frame or too few.
    func run(rows: Int, bands: Int, _ body: (Range<Int>) -> Void) -> Bool {
        guard bands - 1 <= wake.count, busy.try() else { return false }
        defer { busy.unlock() }
        withoutActuallyEscaping(body) { escapable in
            self.body = escapable
            self.rows = rows
            self.bands = bands
            for i in 0..<(bands - 1) { wake[i].signal() }
            escapable(0 ..< rows / bands)
            for _ in 0..<(bands - 1) { finished.wait() }
            self.body = nil
        }
        return true
    }
}
