import FuzzDriver
import Foundation
import MediaGraphCodecs
import MediaGraphCore
import MediaGraphNodes

/// Picture files from strangers: `imagesrc` and `imageseq` on one file (libavformat's image
/// demuxers and libavcodec's picture decoders behind our glue: the header read at validation, the
/// animated-WebP check, the size limits, the decode into the declared layout through libswscale,
/// pal8 / ya8 / 16-bit sources, a sequence whose files each are one packet). libavformat and
/// libavcodec themselves are fuzzed by OSS-Fuzz.
///
/// Input: a byte choosing the file's extension (the image demuxer is picked by it and by the
/// content), a byte of mode bits, then the file, written to the working directory (Fuzz/run.sh
/// runs each target in a fresh one). Mode bits: 0–2 imagesrc's `format` (an index into the 8-bit
/// layouts), 3 `imageseq` instead of `imagesrc`, 4–5 how many frames (1–4). Pictures over
/// 1920×1088 by their header are only validated, not decoded (work per input stays bounded).
let registry = BuiltinNodes.makeRegistry()
let extensions = ["png", "jpg", "webp", "bmp", "tiff", "gif", "ppm", "tga"]
let formats = PixelFormat.eightBit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 2, let data else { return 0 }
    let choice = data[0], mode = data[1]
    let path = "in." + extensions[Int(choice) % extensions.count]
    // a plain write: createFile's atomic write costs more than a small input's whole run
    do { try Data(bytes: data + 2, count: size - 2).write(to: URL(fileURLWithPath: path)) } catch {
        fatalError("cannot write \(path): \(error)")
    }
    defer { unlink(path) }

    let frames = 1 + Int(mode >> 4 & 3)
    let source: String
    if mode & 8 != 0 {
        source = "{\"type\": \"imageseq\", \"params\": {\"path\": \"\(path)\", \"frames\": \(frames)}}"
    } else {
        let format = formats[Int(mode & 7) % formats.count]
        source = "{\"type\": \"imagesrc\", \"params\": {\"path\": \"\(path)\", \"format\": \"\(format)\", \"duration\": \"frame:\(frames)\"}}"
    }
    let text = "{\"nodes\": {\"in\": \(source), \"out\": {\"type\": \"nullsink\"}}, \"chains\": [[\"in\", \"out\"]]}"
    let spec: GraphSpec
    do { spec = try GraphFile.parse(text: text, file: "fuzz.json") } catch { fatalError("the harness's graph does not parse: \(error)\n\(text)") }
    // validation reads the header (and refuses sizes over the limits)
    guard let graph = try? GraphBuilder.build(spec, registry: registry) else { return 0 }
    guard let demuxer = try? Demuxer(path: path),
          let video = demuxer.streams.first(where: { $0.kind == .video }),
          video.width * video.height <= 1920 * 1088 else { return 0 }
    _ = try? GraphRunner(graph: graph).run()
    return 0
}

runLibFuzzer(fuzzImage)
