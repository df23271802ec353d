#!/usr/bin/env python3
"""Every metric the alert rules and the Grafana dashboard query is one the code exports.

Usage: metrics_check.py REPO_ROOT   (run by ops/metrics-check)

What the code exports is read from core/src/telemetry/metrics.rs, the one registry of
every process: each `registry.register("name", "help", field.clone())` under
`Registry::with_prefix("leadgen")`, typed by the `Metrics` field it registers (a counter
is exposed as `<name>_total`, a histogram as `<name>_bucket`, `_sum` and `_count`), with
the label names of its label struct. Reading the source rather than scraping a running
binary: a family appears in a scrape only once it has a sample, so a scrape of an idle
process lists a third of them.

What is used: every PromQL expression in helm/leadgen/files/alerts.yaml and every
target and variable query in helm/leadgen/files/dashboard.json. Checked: each `leadgen_*`
name is exported; each label a selector matches or an aggregation keeps exists on one of
the expression's metrics (or is a scrape target label); each recording rule used is
defined; the dashboard uses no recording rule (it must work without the PrometheusRule);
each exported metric is used somewhere or documented in docs/operations.md's table.
Prints PASS/FAIL lines and `metrics-check: N passed, M failed`.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

# Labels Prometheus adds to every series it scrapes through the chart's ServiceMonitors.
TARGET_LABELS = {"namespace", "pod", "job", "instance", "service", "container", "endpoint"}


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, why: str = "") -> None:
        if ok:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {why}")


def exported(root: Path) -> dict[str, set[str]]:
    """Exposed series name -> its label names, from core/src/telemetry/metrics.rs."""
    text = (root / "core/src/telemetry/metrics.rs").read_text().split("#[cfg(test)]")[0]
    prefix = re.search(r'Registry::with_prefix\("([a-z_]+)"\)', text)
    if not prefix:
        raise SystemExit("metrics_check: no Registry::with_prefix(...) in core/src/telemetry/metrics.rs")
    struct = re.search(r"pub struct Metrics \{(.*?)\n\}", text, re.S)
    fields = dict(re.findall(r"pub (\w+): (.+),\s*$", struct.group(1), re.M)) if struct else {}
    aliases = dict(re.findall(r"pub type (\w+) = (\w+)<", text))
    label_structs = {
        name: set(re.findall(r"pub (\w+):", body))
        for name, body in re.findall(r"pub struct (\w+Labels) \{(.*?)\n\}", text, re.S)
    }
    series: dict[str, set[str]] = {}
    for name, field in re.findall(r'registry\.register\(\s*"([a-z0-9_]+)",\s*"(?:[^"\\]|\\.)*",\s*(\w+)\.clone\(\)', text):
        kind = fields.get(field, "")
        labels_of = re.search(r"Family<(\w+),\s*(\w+)", kind)
        labels = label_structs.get(labels_of.group(1), set()) if labels_of else set()
        base = aliases.get(labels_of.group(2) if labels_of else kind.strip(), labels_of.group(2) if labels_of else kind.strip())
        full = f"{prefix.group(1)}_{name}"
        if base.startswith("Counter"):
            series[f"{full}_total"] = labels
        elif base.startswith("Histogram"):
            for suffix in ("_bucket", "_sum", "_count"):
                series[full + suffix] = labels | ({"le"} if suffix == "_bucket" else set())
        elif base.startswith("Gauge"):
            series[full] = labels
        else:
            raise SystemExit(f"metrics_check: cannot tell the type of {full} (field {field}: {kind!r})")
    return series


def strip_strings(expr: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)


def names_in(expr: str) -> tuple[set[str], set[str]]:
    """(leadgen_* metric names, recording-rule names with colons) in a PromQL expression."""
    code = strip_strings(expr)
    idents = set(re.findall(r"(?<![\w:])[a-zA-Z_:][\w:]*", code))
    return {i for i in idents if i.startswith("leadgen_") and ":" not in i}, {i for i in idents if ":" in i}


def labels_in(expr: str) -> set[str]:
    """Label names in selectors (`{a="x", b=~"y"}`) and in by/without/on/ignoring lists."""
    code = strip_strings(expr)
    found = set()
    for body in re.findall(r"\{([^}]*)\}", code):
        found |= set(re.findall(r"(\w+)\s*(?:=~|!~|!=|=)", body))
    for body in re.findall(r"\b(?:by|without|on|ignoring)\s*\(([^)]*)\)", code):
        found |= {x.strip() for x in body.split(",") if x.strip()}
    return found


def main() -> int:
    root = Path(sys.argv[1])
    c = Checks()
    series = exported(root)
    c.check(f"read {len(series)} exported series from core/src/telemetry/metrics.rs", len(series) >= 20, f"{sorted(series)}")

    rules = yaml.safe_load((root / "helm/leadgen/files/alerts.yaml").read_text())
    records = {r["record"]: r for g in rules["groups"] for r in g["rules"] if "record" in r}
    record_labels = {name: labels_in(r["expr"]) & ({"namespace"} | set().union(*series.values())) for name, r in records.items()}
    exprs: list[tuple[str, str]] = []
    for g in rules["groups"]:
        for r in g["rules"]:
            exprs.append((f"alerts.yaml {r.get('alert') or r.get('record')}", r["expr"]))
    dashboard = json.loads((root / "helm/leadgen/files/dashboard.json").read_text())
    dash_exprs: list[tuple[str, str]] = []
    panels = [p for top in dashboard["panels"] for p in [top, *top.get("panels", [])]]
    for p in panels:
        for t in p.get("targets", []):
            dash_exprs.append((f"dashboard \"{p['title']}\" {t['refId']}", t["expr"]))
    for v in dashboard.get("templating", {}).get("list", []):
        q = v.get("query")
        if isinstance(q, dict):
            q = q.get("query", "")
        if v.get("type") == "query" and q:
            m = re.fullmatch(r"label_values\((\w+),\s*(\w+)\)", q.strip())
            dash_exprs.append((f"dashboard variable {v['name']}", f"{m.group(1)}{{{m.group(2)}=\"\"}}" if m else q))
    c.check("the dashboard has queries", len(dash_exprs) >= 20, f"{len(dash_exprs)}")

    used: set[str] = set()
    for where, expr in exprs + dash_exprs:
        metrics, recorded = names_in(expr)
        used |= metrics
        missing = sorted(m for m in metrics if m not in series)
        c.check(f"{where}: metrics exported", not missing, f"not exported by the code: {missing}")
        undefined = sorted(r for r in recorded if r not in records)
        c.check(f"{where}: recording rules defined", not undefined, f"no rule records {undefined}")
        if where.startswith("dashboard"):
            c.check(f"{where}: no recording rule", not recorded, f"uses {sorted(recorded)}: the dashboard must work without the PrometheusRule")
        known = TARGET_LABELS.union(*(series.get(m, set()) for m in metrics), *(record_labels.get(r, set()) for r in recorded))
        unknown = sorted(labels_in(expr) - known)
        c.check(f"{where}: labels exist", not unknown, f"no metric of this expression has {unknown}")

    ops = (root / "docs/operations.md").read_text()
    for name in sorted(series):
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name.endswith(("_bucket", "_sum", "_count")) else name
        c.check(f"{family} is in docs/operations.md's metrics table", f"| `{family}` |" in ops, "add a row to the table under ## Metrics")
    print(f"note: {len(used)} of {len(series)} exported series are queried by the alerts or the dashboard")
    print(f"metrics-check: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
