"""layermap's generator. Its folders are the pipeline's stages, each importing only those below it:

content → calculation → checks → model → render → emit, orchestrated by ``pipeline`` and ``cli``
(the contracts are in pyproject.toml, ``[tool.importlinter]``; README "How it works")."""
