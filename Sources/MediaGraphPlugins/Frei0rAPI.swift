import CMediaGraphPlugin

/// The frei0r functions of one library, looked up once.
struct Frei0rAPI: Sendable {
    let initialize: mgf0r_init_fn
    let getPluginInfo: mgf0r_get_plugin_info_fn
    let getParamInfo: mgf0r_get_param_info_fn
    let construct: mgf0r_construct_fn
    let destruct: mgf0r_destruct_fn
    let setParam: mgf0r_set_param_value_fn
    let getParam: mgf0r_get_param_value_fn
    /// Filters' and sources' update; absent in most mixers.
    let update: mgf0r_update_fn?
    /// Mixers' update (two or three input frames); filters may export it too.
    let update2: mgf0r_update2_fn?

    init(_ lib: SharedLibrary) throws {
        func f<T>(_ name: String, _ t: T.Type) throws -> T { try lib.function(name, as: t, kind: "frei0r") }
        initialize = try f("f0r_init", mgf0r_init_fn.self)
        getPluginInfo = try f("f0r_get_plugin_info", mgf0r_get_plugin_info_fn.self)
        getParamInfo = try f("f0r_get_param_info", mgf0r_get_param_info_fn.self)
        construct = try f("f0r_construct", mgf0r_construct_fn.self)
        destruct = try f("f0r_destruct", mgf0r_destruct_fn.self)
        setParam = try f("f0r_set_param_value", mgf0r_set_param_value_fn.self)
        getParam = try f("f0r_get_param_value", mgf0r_get_param_value_fn.self)
        update = lib.symbol("f0r_update").map { unsafeBitCast($0, to: mgf0r_update_fn.self) }
        update2 = lib.symbol("f0r_update2").map { unsafeBitCast($0, to: mgf0r_update2_fn.self) }
    }
}
