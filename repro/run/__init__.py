"""Executing runs: the runner (:mod:`.runner`), the run cache (:mod:`.cache`), the execution
backends (:mod:`.backends`), a run's result (:mod:`.result`), code keys of the cache
(:mod:`.codekey`), provenance of a rendering (:mod:`.provenance`), single-threaded timing
(:mod:`.timing`) and the progress display (:mod:`.progress`)."""
