"""Pure functions from the knowledge map to page sources (Markdown with small HTML islands)."""
