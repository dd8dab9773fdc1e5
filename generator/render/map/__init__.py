"""The drawn map, one module per job:

- :mod:`.select` — which topics and edges a map shows (a :class:`~.select.MapGraph`);
- :mod:`.order` — the order inside each band, fewer crossings;
- :mod:`.text_metrics` — how wide text is, how a title wraps;
- :mod:`.place` — x positions, the bands' rows, node boxes;
- :mod:`.route` — edge labels in tracks, waypoints, ports;
- :mod:`.layout` — the steps above in order, from a graph to coordinates;
- :mod:`.svg`, :mod:`.styles`, :mod:`.figure` — the SVG, its stylesheet, the figure in a page;
- :mod:`.settings` — every size, limit and colour.
"""

from generator.render.map.figure import INDEX_FILE, home_map_html, layer_map_html, topic_map_html
from generator.render.map.styles import MAP_STYLES_FILE, map_stylesheet

__all__ = ["INDEX_FILE", "MAP_STYLES_FILE", "home_map_html", "layer_map_html", "map_stylesheet", "topic_map_html"]
