"""The answer pipeline (§5): pure functions over frozen dataclasses; never imports Django."""
