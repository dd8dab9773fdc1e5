"""Every setting of the drawn map in one place: sizes, search effort, size limits and colours.

They are module constants for now; the modules of this package read them from here.
Sizes are SVG user units, about CSS pixels.
"""

# --- text and boxes ---------------------------------------------------------------------

NODE_FONT = 12.0
LABEL_FONT = 11.0  # the smallest text of the map: drawn at least 1:1, it is never below 11 px on screen
HEADER_FONT = 11.0
LINE_H = 14.5
NODE_PAD_X, NODE_PAD_Y = 9.0, 6.0
NODE_TEXT_MAX = 132.0
NODE_MIN_W = 64.0
NODE_MAX_LINES = 3

# --- spacing ----------------------------------------------------------------------------

NODE_GAP = 22.0  # between two nodes in a band
DUMMY_W = 6.0
DUMMY_GAP = 8.0  # between a dummy slot and its neighbour
HEADER_H = 20.0
BAND_PAD = 8.0
TRACK_H = 16.0
LABEL_H = 13.0
LABEL_PAD = 3.0
LABEL_GAP = 10.0  # between two labels in a track
MAX_TRACKS = 16
GAP_PAD = 12.0
MIN_GAP = 40.0  # a gap that edges cross
EMPTY_GAP = 10.0  # a gap that nothing crosses
MARGIN = 12.0

# --- search effort ----------------------------------------------------------------------

SWEEPS = 12  # barycentre sweeps when ordering the bands
X_PASSES = 6  # down-and-up passes when placing x positions

# --- which map a page draws -------------------------------------------------------------

OVERVIEW_EDGES_PER_LAYER = 2  # the overview draws this many times as many links as there are layers
LAYER_MAP_LIMIT = 150  # above this many edges a layer page draws only the edges inside the layer

# --- colours ----------------------------------------------------------------------------

LIGHT_BG = "#ffffff"
DARK_BG = "#1e2129"  # Material's slate background, hsl(225 15% 14%)
MIN_CONTRAST = 3.0  # WCAG 1.4.11, graphical objects
