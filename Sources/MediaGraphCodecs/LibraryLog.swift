import CAVCodec
import MediaGraphCore
import Synchronization
import Foundation

/// libavcodec reports why it refused something only through av_log. This keeps the recent
/// warnings and errors of each codec context so that open/encode failures can carry the
/// library's own words, and keeps libavcodec from printing to stderr.
enum LibraryLog {
    /// Recent messages by the address of their owner (libavcodec logs from its own threads).
    private static let messages = Lock<[UInt: [(level: Int32, text: String)]]>([:])
    /// The largest single allocation libavformat, libavcodec and libswscale may make (their
    /// `av_malloc`): 512 MiB. A real file needs far less (a picture is at most 256 MiB as rgba,
    /// `MediaLimits.maxPixels`; a packet at most `maxAccessUnitSize`); a hostile header that asks
    /// for more (a 1.5 GiB sample table in an MP4 box, found by fuzz-filesrc) makes the library
    /// fail with ENOMEM, which the caller reports, instead of taking the memory.
    static let maxAllocation = 512 << 20

    private static let installed: Void = {
        av_max_alloc(maxAllocation)
        av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_WARNING, let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 0
            av_log_format_line2(nil, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let text = LibraryLog.text(line).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, let context else { return }
            LibraryLog.record(text, level: level, for: LibraryLog.owner(of: context))
        }
    }()

    /// Installs the log callback and the allocation limit, once per process.
    static func install() { _ = installed }

    /// The key messages of `context` are kept under: a codec context that has an `opaque` (a
    /// decoder's, whose frame-thread copies share it) is keyed by it, so what libavcodec logs on
    /// its worker threads reaches the decoder's error messages; anything else by itself.
    private static func owner(of context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        guard let cls = context.assumingMemoryBound(to: UnsafePointer<AVClass>?.self).pointee,
              let name = cls.pointee.class_name, strcmp(name, "AVCodecContext") == 0 else { return context }
        return context.assumingMemoryBound(to: AVCodecContext.self).pointee.opaque ?? context
    }

    private static func record(_ text: String, level: Int32, for context: UnsafeMutableRawPointer) {
        messages.withLock { messages in
            let key = UInt(bitPattern: context)
            var list = messages[key] ?? []
            if list.count >= 8 { list.removeFirst() }
            list.append((level, text))
            messages[key] = list
        }
    }

    /// The messages logged for `context` since the last call, oldest first (and forgets them).
    /// Owners call it once more before freeing a context, so nothing outlives it.
    static func take(for context: UnsafeMutableRawPointer?) -> [String] {
        guard let context else { return [] }
        return messages.withLock { $0.removeValue(forKey: UInt(bitPattern: context)) ?? [] }.map(\.text)
    }

    /// The errors logged for `context` since the last call (and forgets all). libavcodec logs a
    /// rejected x264-params or x265-params entry only as a warning ("Error parsing option …",
    /// "Unknown option: …", "Invalid value for …"), so those warnings count too.
    static func takeErrors(for context: UnsafeMutableRawPointer?) -> [String] {
        guard let context else { return [] }
        return (messages.withLock { $0.removeValue(forKey: UInt(bitPattern: context)) } ?? [])
            .filter { $0.level <= AV_LOG_ERROR || rejectedOptionPrefixes.contains(where: $0.text.hasPrefix) }.map(\.text)
    }

    /// How libavcodec's x264 and x265 wrappers begin the warning for an option the library refused.
    static let rejectedOptionPrefixes = ["Error", "Unknown option:", "Invalid value for"]

    /// av_strerror's text for a libav error code.
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return text(buffer)
    }

    /// The text a C function wrote into `buffer`, up to its NUL (or the whole buffer without one).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "what failed: <library messages>; <error text>".
    static func message(_ what: String, code: Int32, context: UnsafeMutableRawPointer?) -> String {
        let logged = take(for: context)
        let detail = logged.isEmpty ? describe(code) : logged.joined(separator: "; ") + " (\(describe(code)))"
        return "\(what): \(detail)"
    }
}
