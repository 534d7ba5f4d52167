"""The commands: ``python -m repro …`` (:mod:`.main`; its options handed to the run pipeline,
:mod:`repro.pipeline`, by :mod:`.pipeline`), ``runs`` (:mod:`.runs`) and ``eval``
(:mod:`.eval`)."""
