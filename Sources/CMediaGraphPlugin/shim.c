// The header-only C target needs one source file for SwiftPM to build it.
#include "mediagraph_plugin.h"
#include "frei0r_host.h"
