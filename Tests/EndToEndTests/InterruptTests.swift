import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C on `mediagraph run` (Sources/mediagraph/InterruptHandler.swift): the first press asks
/// for an orderly stop (Y4MAndRawTests and EncodeAndMuxTests check the finalized outputs), the
/// second exits at once, which matters when the graph cannot drain.
@Suite struct InterruptTests {
    /// The sink writes into a pipe whose reader never reads: once the pipe is full the sink
    /// blocks, so the orderly stop the first Ctrl-C asks for cannot finish. The second Ctrl-C
    /// ends the process at once with the documented 130.
    @Test func secondCtrlCExitsAtOnceWhenTheGraphCannotDrain() throws {
        let dir = CLI.tempDir()
        let fifo = dir + "/stuck.y4m"
        try #require(mkfifo(fifo, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        // opened first, without blocking, so the sink's open for writing finds a reader
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let g = CLI.writeGraph("""
        { "nodes": { "src": { "type": "testsrc", "params": { "width": 320, "height": 240, "frames": 100000 } },
                     "out": { "type": "y4msink", "params": { "path": "stuck.y4m" } } },
          "chains": [["src", "out"]] }
        """, in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: CLI.binary)
        p.arguments = ["run", "--quiet", g]
        let errPipe = Pipe()
        p.standardError = errPipe
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }

        // wait until the sink has written (one 320x240 frame is more than the pipe holds)
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(6 * CLI.timeLimit)
        while poll(&ready, 1, 100) == 0 && Date() < deadline && p.isRunning {}
        try #require((ready.revents & Int16(POLLIN)) != 0, "the sink never wrote into the pipe")
        Thread.sleep(forTimeInterval: 0.5)

        kill(p.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 1)
        #expect(p.isRunning, "the sink is blocked on the full pipe: the orderly stop cannot finish")

        let second = Date()
        kill(p.processIdentifier, SIGINT)
        while p.isRunning && Date().timeIntervalSince(second) < 2 * CLI.timeLimit { Thread.sleep(forTimeInterval: 0.02) }
        try #require(!p.isRunning, "a second Ctrl-C must end the process at once")
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        #expect(Date().timeIntervalSince(second) < CLI.timeLimit)
        let err = String(decoding: errPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!err.contains("outputs finalized"), "\(err)")
    }
}
