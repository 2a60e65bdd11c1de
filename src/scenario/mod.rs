//! Scenarios: the YAML model, the loader with positions, expectations, the runner.
