"""What a run returns: records (:mod:`.record`) and the per-query tables behind them
(:mod:`.tables`); how a task measures and selects (:mod:`.protocol`), the run files it can
export (:mod:`.run_files`) and the rankers run beside a paper's methods (:mod:`.reference`)."""
from .tables import (NOT_KEY, SIDECAR_SUFFIX, TABLE_DATA, Evidence, Measured, QueryTable,
                     TableIndex, decode_sidecar, encode_sidecar, key_text, table_key, table_mean)

__all__ = ["NOT_KEY", "SIDECAR_SUFFIX", "TABLE_DATA", "Evidence", "Measured", "QueryTable",
           "TableIndex", "decode_sidecar", "encode_sidecar", "key_text", "table_key",
           "table_mean"]
