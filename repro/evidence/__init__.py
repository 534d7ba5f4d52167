"""What a run returns: records (:mod:`.record`: the fields that identify a value, and when a
value is a number) and the per-query tables behind them (:mod:`.tables`); how a task measures
and selects (:mod:`.protocol`), the run files it can export (:mod:`.run_files`) and the rankers
run beside a paper's methods (:mod:`.reference`)."""
from .record import key_text, table_key
from .tables import (SIDECAR_SUFFIX, Evidence, Measured, QueryTable, TableIndex, decode_sidecar,
                     encode_sidecar, table_mean)

__all__ = ["SIDECAR_SUFFIX", "Evidence", "Measured", "QueryTable", "TableIndex",
           "decode_sidecar", "encode_sidecar", "key_text", "table_key", "table_mean"]
