import ArgumentParser
import Foundation
import MediaGraphCore
import MediaGraphNodes

struct ThumbnailsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "Write N representative pictures of a video file, spread over its duration, skipping near-black and near-uniform frames; optionally a contact sheet.",
        discussion: """
        Each picture comes from the middle of one of N equal parts of the file: a seek to the key frame before it, then that frame (or a later one of the same GOP when it is near-black or near-uniform), so the time taken grows with N, not with the file's length. Prints one line per picture: its file and time.
        Pictures are upright: a stream with a display rotation (90, 180, 270) gives pictures with the display's width and height, and --width is the displayed width.
        Exit 1 when the file cannot be read as video, not one picture can be made from it (no decodable frame, or a file cut short), or a picture cannot be written; 2 for bad arguments (found before the file is read).
        """)

    @Argument(help: "The video file.") var file: String
    @Option(name: [.customShort("n"), .long], help: "Number of pictures (1–1000).") var count = 10
    @Option(name: .shortAndLong, help: ArgumentHelp("Picture file pattern: %d or %02d the number, %t the time (HH-MM-SS.mmm); .jpg, .png or .webp.", valueName: "pattern"))
    var output = "thumb-%02d.jpg"
    @Option(name: .shortAndLong, help: "Width of each picture; the height follows the display aspect ratio; both rounded down to even (0: the video's size).") var width = 320
    @Option(name: .shortAndLong, help: "Quality 1–100 (JPEG, WebP).") var quality = 90
    @Option(help: ArgumentHelp("Also write a contact sheet: every picture in a grid with its time under it.", valueName: "file")) var sheet: String?
    @Option(help: "Pictures per row of the contact sheet.") var columns = 5
    @Flag(name: .customLong("sheet-only"), help: "Write only the contact sheet, no separate pictures.") var sheetOnly = false

    func run() throws {
        guard (1...1000).contains(count) else { Console.error("error: --count: expected 1...1000, found \(count)"); throw ExitCode(2) }
        guard width >= 0 && width <= 16384 else { Console.error("error: --width: expected 0...16384, found \(width)"); throw ExitCode(2) }
        guard (1...100).contains(quality) else { Console.error("error: --quality: expected 1...100, found \(quality)"); throw ExitCode(2) }
        if sheetOnly && sheet == nil { Console.error("error: --sheet-only needs --sheet FILE"); throw ExitCode(2) }
        let options = ThumbnailOptions(count: count, pattern: sheetOnly ? nil : output, width: width == 0 ? nil : width,
                                       quality: quality, sheetPath: sheet, columns: columns)
        // an output pattern or sheet that cannot work is a bad argument too, before the file is read
        do { try options.check() } catch { Console.error("error: \(error)"); throw ExitCode(2) }
        InterruptHandler.install()
        let report: ThumbnailReport
        do {
            report = try ThumbnailMaker.make(file: file, options: options, stop: InterruptHandler.stopFlag())
        } catch {
            Console.error("error: \(error)")
            throw ExitCode(InterruptHandler.isInterrupted ? InterruptHandler.exitCode : 1)
        }
        for t in report.thumbnails {
            var line = "\(t.path ?? "-")\t" + String(format: "%.3f", t.seconds)
            if let f = t.fallback { line += "\t(\(f))" }
            Console.out(line + "\n")
        }
        if let sheet { Console.out("\(sheet)\tcontact sheet\n") }
        if let shortfall = report.shortfall {
            Console.error("warning: \(report.thumbnails.count) of \(count) pictures: \(shortfall)")
        }
    }
}
