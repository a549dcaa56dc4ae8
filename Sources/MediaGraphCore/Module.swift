// Module MediaGraphCore.
