// Module MediaGraphCodecs: filled in by its own work item.
