"""Executing runs: the runner and its backends (:mod:`.runner`), code keys of the cache
(:mod:`.codekey`), provenance of a rendering (:mod:`.provenance`), single-threaded timing
(:mod:`.timing`) and the progress display (:mod:`.progress`)."""
