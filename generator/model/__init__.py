"""Stage 4, model: the content as pages read it, computed once (the knowledge map with edges both ways, siblings and layers; calculators as pages show them)."""
