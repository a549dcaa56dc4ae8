import CASS
import Foundation
import MediaGraphCore

/// What libass says while it reads a script and renders it: it reports only through a message
/// callback (as ffmpeg's ass filter routes it into av_log), so these are kept to be shown with
/// the node's name. Warnings and errors are kept (libass's levels 0–2); its info and debug
/// chatter (font matches, cache sizes) is dropped. At most `limit` distinct texts are kept,
/// each with how often it came, so a script that makes libass repeat itself every frame costs
/// no memory.
public final class ASSMessages: @unchecked Sendable {
    public struct Message: Sendable, Equatable {
        /// libass's level: 0 fatal, 1 error, 2 warning.
        public var level: Int
        public var text: String
        public var count: Int
        public var isError: Bool { level <= 1 }
    }

    /// The most distinct messages kept.
    public static let limit = 20
    private let kept = Lock<[Message]>([])

    /// The messages since the last `take`, oldest first (and forgets them).
    public func take() -> [Message] { kept.withLock { m in defer { m = [] }; return m } }

    /// The messages since the last `take`, oldest first (kept).
    public var current: [Message] { kept.withLock { $0 } }

    func record(level: Int, text: String) {
        guard level <= 2, !text.isEmpty else { return }
        kept.withLock { m in
            if let k = m.firstIndex(where: { $0.text == text }) { m[k].count += 1 } else if m.count < Self.limit {
                m.append(Message(level: level, text: text, count: 1))
            }
        }
    }

    /// libass starts some messages with the address of its track ("[0x55d1…]: Warning: …"),
    /// which says nothing to a person.
    static func withoutAddress(_ text: String) -> String {
        guard text.hasPrefix("[0x"), let close = text.firstIndex(of: "]") else { return text }
        return String(text[text.index(after: close)...].drop { $0 == ":" || $0 == " " })
    }

    /// Installs this as `library`'s message callback; the library must not outlive it.
    func install(on library: OpaquePointer) {
        ass_set_message_cb(library, { level, format, arguments, data in
            guard let format, let arguments, let data else { return }
            var line = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&line, line.count, format, arguments)
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            Unmanaged<ASSMessages>.fromOpaque(data).takeUnretainedValue()
                .record(level: Int(level), text: ASSMessages.withoutAddress(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
