import FuzzDriver
import MediaGraphKernels

/// Photoshop curves files (.acv, the `curves` filter's `psfile`): the parser on arbitrary bytes;
/// whatever it accepts must give tables (256 entries per channel).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACV(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let curves = try? PhotoshopCurves(parsing: bytes, file: "fuzz.acv") else { return 0 }
    for curve in [curves.master, curves.red, curves.green, curves.blue] {
        if let curve, curve.table.count != 256 { fatalError("a curve's table has \(curve.table.count) entries") }
    }
    return 0
}

runLibFuzzer(fuzzACV)
