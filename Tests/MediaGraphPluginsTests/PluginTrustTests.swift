import Foundation
import Testing

/// A graph file alone cannot make mediagraph load a library from an arbitrary path, and a
/// plugin's declaration is checked before it is trusted: hostile numbers, counts, strings and
/// null pointers are refused with the file and the field.
@Suite struct PluginTrustTests {
    /// ctest.c plus a constructor that writes `marker` when the library is loaded: proof of
    /// whether the library's code ran.
    static func evilPlugin(in dir: String, marker: String) throws -> String {
        let ctor = dir + "/ctor.c"
        Tool.write("""
        #include <stdio.h>
        __attribute__((constructor)) static void leave_marker(void) {
            FILE *f = fopen("\(marker)", "w");
            if (f) { fputs("the constructor ran\\n", f); fclose(f); }
        }
        """, to: ctor)
        Tool.write(CPluginSource.text, to: dir + "/ctest.c")
        let out = dir + "/evil.so"
        let r = try Tool.run("cc", ["-shared", "-fPIC", "-O2", "-I", Tool.root + "/Sources/CMediaGraphPlugin/include", dir + "/ctest.c", ctor, "-o", out])
        #expect(r.status == 0, "cc: \(r.stderr)")
        return out
    }

    func graph(plugins: [String]) -> String {
        let list = plugins.map { "\"\($0)\"" }.joined(separator: ", ")
        return #"{"plugins": [\#(list)], "nodes": {"s": {"type": "testsrc", "params": {"width": 64, "height": 48, "frames": 2}}, "f": {"type": "ctest.offset"}, "o": {"type": "nullsink"}}, "chains": [["s", "f", "o"]]}"#
    }

    @Test func graphNamingALibraryOutsideTheSearchPathIsRefusedBeforeLoading() throws {
        let dir = Tool.tempDir(), elsewhere = Tool.tempDir()
        defer { for d in [dir, elsewhere] { try? FileManager.default.removeItem(atPath: d) } }
        let marker = dir + "/constructor-ran"
        let evil = try Self.evilPlugin(in: elsewhere, marker: marker)
        for entry in [evil, "../" + (elsewhere as NSString).lastPathComponent + "/evil.so", "evil"] {
            Tool.write(graph(plugins: [entry]), to: dir + "/g.json")
            for command in ["validate", "run", "dot"] {
                let r = try Tool.mediagraph([command, dir + "/g.json"])
                #expect(r.status == 2, "\(command) \(entry): \(r.stderr)")
                #expect(r.stderr.hasPrefix("\(dir)/g.json:1:14: error: plugin '\(entry)' is not on the plugin search path, and a graph file alone cannot make mediagraph load a library (a plugin is code). A graph may name the plugins of: "), "\(r.stderr)")
                #expect(r.stderr.contains("To load it: "), "\(r.stderr)")
                #expect(!FileManager.default.fileExists(atPath: marker), "\(command) \(entry): the library's constructor ran")
            }
        }
        // the user decides: --plugin names the file, or --allow-plugins trusts the graph
        Tool.write(graph(plugins: [evil]), to: dir + "/g.json")
        let named = try Tool.mediagraph(["run", "-q", "--plugin", evil, dir + "/g.json"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
        try FileManager.default.removeItem(atPath: marker)
        let allowed = try Tool.mediagraph(["run", "-q", "--allow-plugins", dir + "/g.json"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test func pluginsOnTheSearchPathMayBeNamedByNameOrPath() throws {
        let dir = Tool.tempDir(), lib = Tool.tempDir()
        defer { for d in [dir, lib] { try? FileManager.default.removeItem(atPath: d) } }
        _ = try CPluginTests.compile(in: lib, name: "ctest.so")
        try FileManager.default.createSymbolicLink(atPath: dir + "/alias.so", withDestinationPath: lib + "/ctest.so")
        for entry in ["ctest", "ctest.so", lib + "/ctest.so", "./alias.so"] {
            Tool.write(graph(plugins: [entry]), to: dir + "/g.json")
            let r = try Tool.mediagraph(["run", "-q", dir + "/g.json"], env: ["MEDIAGRAPH_PLUGIN_PATH": lib])
            #expect(r.status == 0, "\(entry): \(r.stderr)")
            let d = try Tool.mediagraph(["validate", "--plugin", lib, dir + "/g.json"])
            #expect(d.status == 0, "\(entry): \(d.stderr)")
        }
        // the example plugin, from the directory of the executable (a built-in plugin directory)
        let r = try Tool.mediagraph(["validate", Tool.root + "/Graphs/plugin-example.json"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    // MARK: hostile declarations

    /// A C plugin with one defect in its declaration; `decl` replaces the node/param tables.
    static func hostile(_ decl: String, in dir: String, name: String) throws -> String {
        let src = dir + "/\(name).c"
        Tool.write("""
        #include <math.h>
        #include <stddef.h>
        #include "mediagraph_plugin.h"
        static void *c(void *d, int32_t w, int32_t h, int32_t f, mg_error *e) { (void)d; (void)w; (void)h; (void)f; (void)e; return (void *)1; }
        static int s(void *i, int32_t k, const mg_param_value *v, mg_error *e) { (void)i; (void)k; (void)v; (void)e; return 0; }
        static int p(void *i, const mg_frame *a, mg_frame *b, mg_error *e) { (void)i; (void)a; (void)b; (void)e; return 0; }
        static void x(void *i) { (void)i; }
        static const int32_t fmts[] = { MG_PIXEL_GRAY };
        #define NODE(params, count) { "h.x", "doc", fmts, 1, params, count, 0, NULL, c, s, p, NULL, x }
        \(decl)
        const mg_plugin_desc *mediagraph_plugin_entry(void) { return &plugin; }
        """, to: src)
        let out = dir + "/\(name).so"
        let r = try Tool.run("cc", ["-shared", "-fPIC", "-O0", "-w", "-I", Tool.root + "/Sources/CMediaGraphPlugin/include", src, "-o", out, "-lm"])
        #expect(r.status == 0, "cc: \(r.stderr)")
        return out
    }

    static let long = String(repeating: "a", count: 5000)
    static let hostileCases: [(String, String, String)] = [
        ("nan-min", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_DOUBLE, "", 0, NULL, 1, NAN, 1}}; static const mg_node_desc ns[] = {NODE(ps, 1)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': param 'k': field 'min' is nan; expected a finite number within ±1000000000000000"),
        ("huge-int-range", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_INT, "", 0, NULL, 1, -1e300, 1e300}}; static const mg_node_desc ns[] = {NODE(ps, 1)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': param 'k': field 'min' is -1e+300; expected a finite number within ±1000000000000000"),
        ("infinite-default", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_DOUBLE, "", INFINITY, NULL, 0, 0, 0}}; static const mg_node_desc ns[] = {NODE(ps, 1)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': param 'k': field 'default_number' is inf; expected a finite number within ±1000000000000000"),
        ("fractional-int", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_INT, "", 2.5, NULL, 0, 0, 0}}; static const mg_node_desc ns[] = {NODE(ps, 1)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': param 'k': field 'default_number' is 2.5; expected a whole number for an integer param"),
        ("node-count", #"static const mg_node_desc ns[] = {NODE(NULL, 0)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1000000};"#,
         "descriptor field 'node_count' is 1000000; expected 0…256"),
        ("param-count", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_BOOL, "", 0, NULL, 0, 0, 0}}; static const mg_node_desc ns[] = {NODE(ps, 1 << 30)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': field 'param_count' is 1073741824; expected 0…256"),
        ("null-formats", #"static const mg_node_desc ns[] = {{ "h.x", "doc", NULL, 1, NULL, 0, 0, NULL, c, s, p, NULL, x }}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': field 'formats' is NULL but format_count is 1"),
        ("null-params", #"static const mg_node_desc ns[] = {NODE(NULL, 3)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': declares 3 params without a param array or a set_param callback"),
        ("null-name", #"static const mg_node_desc ns[] = {{ NULL, "doc", fmts, 1, NULL, 0, 0, NULL, c, s, p, NULL, x }}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type #0 has no name"),
        ("long-type-name", #"static const mg_node_desc ns[] = {{ "\#(long)", "doc", fmts, 1, NULL, 0, 0, NULL, c, s, p, NULL, x }}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type #0: field 'name' is not a NUL-terminated string of at most 256 bytes"),
        ("unterminated-plugin-name", #"static const char nonul[300] = "\#(String(repeating: "b", count: 300))"; static const mg_node_desc ns[] = {NODE(NULL, 0)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, nonul, "1", ns, 1};"#,
         "descriptor field 'name' is not a NUL-terminated string of at most 256 bytes"),
        ("duplicate-param", #"static const mg_param_desc ps[] = {{"k", MG_PARAM_BOOL, "", 0, NULL, 0, 0, 0}, {"k", MG_PARAM_BOOL, "", 0, NULL, 0, 0, 0}}; static const mg_node_desc ns[] = {NODE(ps, 2)}; static const mg_plugin_desc plugin = {MG_PLUGIN_ABI_VERSION, "h", "1", ns, 1};"#,
         "node type 'h.x': declares param 'k' twice"),
    ]

    @Test(arguments: hostileCases.map { $0.0 })
    func hostileDeclarationIsRefusedNamingFileAndField(_ name: String) throws {
        let c = Self.hostileCases.first { $0.0 == name }!
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let so = try Self.hostile(c.1, in: dir, name: name)
        Tool.write(#"{"nodes": {"s": {"type": "testsrc", "params": {"frames": 1}}, "o": {"type": "nullsink"}}, "chains": [["s", "o"]]}"#, to: dir + "/g.json")
        let start = Date()
        let r = try Tool.mediagraph(["validate", "--plugin", so, dir + "/g.json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: plugin \(so): \(c.2)"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < Tool.timeLimit)
        let listed = try Tool.mediagraph(["plugins", "--plugin", so])
        #expect(listed.status == 1 && listed.out.contains("plugin \(so): \(c.2)"), "\(listed.out)")
    }

    /// A frei0r effect claiming a billion params is refused without asking for each of them.
    @Test func frei0rAbsurdParamCount() throws {
        let dir = Tool.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Tool.write("""
        #include "frei0r_host.h"
        int f0r_init(void) { return 1; }
        void f0r_deinit(void) {}
        void f0r_get_plugin_info(mgf0r_plugin_info *i) { i->name = "evil"; i->author = "x"; i->plugin_type = MGF0R_TYPE_FILTER;
            i->color_model = MGF0R_COLOR_RGBA8888; i->frei0r_version = 1; i->major_version = 1; i->minor_version = 0;
            i->num_params = 1 << 30; i->explanation = "claims a billion params"; }
        void f0r_get_param_info(mgf0r_param_info *p, int k) { (void)k; p->name = "p"; p->type = MGF0R_PARAM_DOUBLE; p->explanation = ""; }
        void *f0r_construct(unsigned w, unsigned h) { (void)w; (void)h; return (void *)1; }
        void f0r_destruct(void *i) { (void)i; }
        void f0r_set_param_value(void *i, void *v, int k) { (void)i; (void)v; (void)k; }
        void f0r_get_param_value(void *i, void *v, int k) { (void)i; (void)k; *(double *)v = 0; }
        void f0r_update(void *i, double t, const uint32_t *a, uint32_t *b) { (void)i; (void)t; (void)a; (void)b; }
        """, to: dir + "/evil.c")
        let r0 = try Tool.run("cc", ["-shared", "-fPIC", "-w", "-I", Tool.root + "/Sources/CMediaGraphPlugin/include", dir + "/evil.c", "-o", dir + "/evil.so"])
        #expect(r0.status == 0, "cc: \(r0.stderr)")
        Tool.write(#"{"nodes": {"s": {"type": "testsrc", "params": {"format": "rgba", "frames": 1}}, "e": {"type": "frei0r.evil"}, "o": {"type": "nullsink"}}, "chains": [["s", "e", "o"]]}"#, to: dir + "/g.json")
        let start = Date()
        let r = try Tool.mediagraph(["validate", dir + "/g.json"], env: ["FREI0R_PATH": dir])
        #expect(r.status == 2)
        #expect(r.stderr.contains("error: plugin \(dir)/evil.so: f0r_plugin_info field 'num_params' is 1073741824; expected 0…256"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(start) < Tool.timeLimit)
    }
}
