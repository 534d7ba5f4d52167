"""The commands: ``python -m repro …`` (:mod:`.main`), the run pipeline (:mod:`.pipeline`),
``runs`` (:mod:`.runs`) and ``eval`` (:mod:`.eval`)."""
