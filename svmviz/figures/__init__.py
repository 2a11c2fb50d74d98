"""Figures: ``compute_*`` functions return NamedTuples of arrays (testable without pixels);
``plot_*`` functions turn them into ``plotly.graph_objects.Figure`` objects in one theme."""
