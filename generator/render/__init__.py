"""Stage 5, render: pure functions from the model to page sources (Markdown with small HTML islands), escaping by construction."""
