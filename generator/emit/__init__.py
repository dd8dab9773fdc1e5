"""Stage 6, emit: the docs tree and engine config written out, the only code that knows MkDocs (build aside and swap, serve and watch), the service worker and the downloadable copy."""
