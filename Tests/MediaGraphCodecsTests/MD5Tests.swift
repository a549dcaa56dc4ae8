import MediaGraphCodecs
import Testing

/// `MD5` (libavutil's) against the test suite of RFC 1321, appendix A.5.
@Suite struct MD5Tests {
    static let rfc1321: [(String, String)] = [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ]

    @Test func rfc1321Suite() {
        for (text, digest) in Self.rfc1321 {
            var md5 = MD5()
            md5.update(Array(text.utf8))
            #expect(md5.finalize() == digest, "MD5(\"\(text)\")")
        }
    }

    /// Fed in pieces of every size (crossing 64-byte blocks), then reused after `finalize`.
    @Test func streamingAndReuse() {
        let bytes = Array(String(repeating: "1234567890", count: 8).utf8)
        var md5 = MD5()
        for piece in 1...13 {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                bytes[start..<end].withUnsafeBufferPointer { md5.update($0.baseAddress!, count: $0.count) }
                start = end
            }
            #expect(md5.finalize() == "57edf4a22be3c955ac49da2e2107b67a", "pieces of \(piece)")
        }
    }
}
