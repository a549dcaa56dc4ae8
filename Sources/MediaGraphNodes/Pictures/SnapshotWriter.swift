import Dispatch
import Foundation
import MediaGraphCodecs
import MediaGraphCore
import Synchronization

/// The `snapshot` node's encoder thread: takes one picture at a time and writes it, so the node's
/// own thread (and the branch feeding it) never waits for an encoder. `offer` hands a frame over
/// only when the thread is idle and returns false otherwise (the node counts the skip): the frame
/// is a reference to the shared buffer, not a copy, so a busy writer costs the graph nothing.
///
/// A picture that cannot be written (a full disk, a directory gone) is counted, with the first
/// error, and the thread goes on to the next one: a side branch's pictures never cost the
/// recording (the node reports the count as a run warning).
///
/// `@unchecked Sendable`: the encoder is used only by the writer thread once `start` has run;
/// the job slot and the failures are behind mutexes; `busy` is atomic. The same holds for
/// `upright`, whose memory the writer thread alone uses.
final class SnapshotWriter: @unchecked Sendable {
    struct Job: Sendable {
        var buffer: SampleBuffer
        var path: String
        /// The frame's time, for the report of a picture that could not be written.
        var seconds: Double
    }

    /// Pictures that could not be written, and the first of them.
    struct Failures {
        var count = 0
        var first: (seconds: Double, error: any Error)?
    }

    private let encoder: StillImageEncoder
    /// Turns frames of a rotated stream upright before the encoder (whose source is `upright.upright`).
    private let upright: UprightFrames
    private let slot = Lock<Job?>(nil)
    private let failed = Lock(Failures())
    private let busy = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    /// Signalled after each picture: `hand` waits on it when told to wait.
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    /// Pictures written (read after `stop`).
    private let written = Atomic<Int>(0)

    init(encoder: StillImageEncoder, upright: UprightFrames) {
        self.encoder = encoder
        self.upright = upright
    }

    var picturesWritten: Int { written.load(ordering: .relaxed) }

    func start(name: String) {
        let t = Thread { [self] in run() }
        t.name = name
        thread = t
        t.start()
    }

    /// Hands `job` to the thread if it is idle; false if it is still writing the previous one.
    func offer(_ job: Job) -> Bool {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return false }
        slot.withLock { $0 = job }
        wake.signal()
        return true
    }

    /// Hands `job` to the thread, waiting for the picture in hand to be done first.
    func hand(_ job: Job) {
        // a stale signal from an earlier picture only makes the loop look again
        while !offer(job) { finished.wait() }
    }

    /// Pictures that could not be written so far (read after `stop`: all of them).
    var failures: Failures { failed.withLock { $0 } }

    /// Lets the picture in hand finish, then ends the thread and waits for it.
    func stop() {
        guard thread != nil else { return }
        stopping.store(true, ordering: .releasing)
        wake.signal()
        exited.wait()
        thread = nil
    }

    private func run() {
        defer { exited.signal() }
        while true {
            wake.wait()
            // stop: the picture handed over just before `stop` is still written
            let stop = stopping.load(ordering: .acquiring)
            if let job = slot.withLock({ j in defer { j = nil }; return j }) { perform(job) }
            if stop { return }
        }
    }

    private func perform(_ job: Job) {
        do {
            try write(job)
            written.add(1, ordering: .relaxed)
        } catch {
            failed.withLock { f in
                f.count += 1
                if f.first == nil { f.first = (job.seconds, error) }
            }
        }
        busy.store(false, ordering: .releasing)
        finished.signal()
    }

    private func write(_ job: Job) throws {
        guard let planes = job.buffer.planes else { return }
        // turned here, on the writer's thread: the node's thread only hands the frame over
        let picture = try upright.upright(planes)
        let file = try OutputFile(path: job.path)
        do {
            try encoder.encode(picture) { bytes in
                if let base = bytes.baseAddress { try file.write(base, count: bytes.count) }
            }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }
}
