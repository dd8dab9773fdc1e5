"""Stage 2, calculation: the one port to calculators/ and calcview/, and what is computed through it (things to try played, numbers in prose, the calculators' sources)."""
