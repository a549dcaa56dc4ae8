// Module MediaGraphShader: filled in by its own work item.
