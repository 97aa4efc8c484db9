"""Files of published benchmark tables written in a test, for the importer's light rule files."""

from __future__ import annotations

from pathlib import Path

#: The instances and the table heading the importer's rule files build their states from.
INSTANCES = ["inf2.xlarge", "inf2.8xlarge", "inf1.xlarge", "trn1.32xlarge", "trn1n.32xlarge", "trn1.2xlarge"]
HEAD = "Model,Framework,Inst. Type,Batch Size,Neuron Version,Throughput (inference/second),Latency P50 (ms)"
ENC = "inf2/throughput_data_encoder.csv"


def put(root: Path, rel: str, text: str | bytes) -> Path:
    """``text`` written at ``root / rel`` (folders made; a text as UTF-8, bytes as they are)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path
