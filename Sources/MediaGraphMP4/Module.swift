// Module MediaGraphMP4: filled in by its own work item.
