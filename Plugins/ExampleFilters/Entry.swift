import MediaGraphPluginKit

/// The plugin's descriptor, built once when the host first asks for it.
let descriptor = PluginExport.descriptor(name: "example-filters", version: "1.0",
                                         filters: [Posterize.self, ExampleInvert.self],
                                         mixers: [ExampleAverage.self])

/// The entry point the host looks up.
@_cdecl("mediagraph_plugin_entry")
public func mediagraphPluginEntry() -> UnsafeRawPointer { descriptor.pointer }
