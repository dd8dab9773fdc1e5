"""Stage 1, content: read content/ (YAML with positions) into one typed model, and turn schema errors into diagnostics."""
