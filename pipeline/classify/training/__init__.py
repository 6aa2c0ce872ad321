"""Training kb's classifier from a corpus directory (scikit-learn: the ``kb[train]`` extra).

``train`` (the run, ``kb train``), ``corpus`` (read, label, deduplicate, split), ``labelmap``
(``data/label_map.toml``), ``fit`` (vocabulary, TF-IDF, heads), ``stack`` (stage 2),
``tuning`` (thresholds), ``provenance`` (licences); the figures are ``pipeline.classify.metrics``. Nothing at run time
imports this package.
"""
