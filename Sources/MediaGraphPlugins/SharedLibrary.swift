#if canImport(Glibc)
import Glibc
#endif

/// A shared library opened with dlopen. Plugins stay loaded for the life of the process (their
/// descriptors and callbacks are referenced by registered node types), so there is no close.
struct SharedLibrary {
    let path: String
    let handle: UnsafeMutableRawPointer

    /// Opens `path`; a missing file or a file that is not a shared library is a `PluginError`.
    init(path: String) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw PluginError(file: path, "no such file") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw PluginError(file: path, "not a regular file") }
        // a bare file name would make dlopen search the library path instead of opening this file
        guard let h = dlopen(path.contains("/") ? path : "./" + path, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "unknown reason"
            throw PluginError(file: path, "not a loadable shared library (\(why))")
        }
        self.path = path
        self.handle = h
    }

    /// The address of an exported symbol, or nil.
    func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }

    /// The address of a symbol the plugin must export, as a function of type `T`.
    func function<T>(_ name: String, as type: T.Type, kind: String) throws -> T {
        guard let p = symbol(name) else {
            throw PluginError(file: path, "is not a \(kind) plugin: it does not export the entry point '\(name)'")
        }
        return unsafeBitCast(p, to: type)
    }
}
