#!/usr/bin/env bash
# Before and after: runs FlowCost built against CHECKOUT (through flowcost-baseline.sh) and against this checkout in K
# alternating processes, each with `--csv` and the arguments given, then prints for every row and every ratio line
# the median over each build's processes. The ratios (bounded ÷ unbounded, bounded ÷ hand) are computed within each
# process, from the same repetitions, and only then is their median taken across processes.
#
# Usage: K=5 Benchmarks/flowcost-compare.sh CHECKOUT [FlowCost arguments…]
#        e.g. git worktree add /tmp/base-23494cc 23494cc
#             K=5 Benchmarks/flowcost-compare.sh /tmp/base-23494cc --shape a,b,e --repetitions 3
#        K (default 5): processes per build. OUT=/path (default: a new temporary folder) keeps each process's CSV.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checkout="${1:?usage: K=5 flowcost-compare.sh CHECKOUT [FlowCost arguments…]}"
shift
k="${K:-5}"
out="${OUT:-$(mktemp -d /tmp/flowcost-compare.XXXXXX)}"
mkdir -p "$out"

before="$("$here/flowcost-baseline.sh" "$checkout" --bin-path)"
log="$out/build.log"
if ! swift build -c release --package-path "$here" --product FlowCost >"$log" 2>&1; then
  cat "$log"
  exit 1
fi
after="$(swift build -c release --package-path "$here" --show-bin-path)/FlowCost"

for round in $(seq 1 "$k"); do
  # Each round starts with the other build, so that neither always runs first.
  if ((round % 2 == 1)); then order="before after"; else order="after before"; fi
  for build in $order; do
    if [ "$build" = before ]; then bin="$before"; else bin="$after"; fi
    echo "round $round/$k: $build" >&2
    "$bin" --csv "$@" >"$out/$build-$round.csv"
  done
done

echo "before: $(basename "$checkout") ($before)"
echo "after:  this checkout, $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- .. || echo ' + changes')"
echo "$k processes each; CSVs in $out"
echo
# Every figure of every line, per build; then the median of each over the processes, in the order FlowCost prints.
awk -F, '
  FNR == 1 { build = FILENAME ~ /\/before-[0-9]+\.csv$/ ? "before" : "after" }
  $1 == "kind" { for (i = 1; i <= NF; i++) name[i] = $i; next }
  $1 != "row" && $1 != "ratio" { next }
  {
    for (i = 6; i <= NF; i++) {
      if ($i == "") continue
      figure = $1 == "ratio" ? (i == 6 ? "wall" : "cpu") : name[i]
      key = $2 SUBSEP $3 SUBSEP $4 SUBSEP figure
      if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      values[build, key, ++count[build, key]] = $i + 0
    }
  }
  function median(build, key,    n, i, j, v, t) {
    n = count[build, key]
    if (n == 0) return ""
    for (i = 1; i <= n; i++) v[i] = values[build, key, i]
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function shown(x) { return x == "" ? "" : (x >= 1000 || x <= -1000) ? sprintf("%.0f", x) : sprintf("%.4g", x) }
  END {
    printf "%-6s %-5s %-19s %-23s %12s %12s %14s\n", "pass", "shape", "variant", "figure", "before", "after", "before/after"
    for (o = 1; o <= keys; o++) {
      split(order[o], part, SUBSEP)
      b = median("before", order[o]); a = median("after", order[o])
      ratio = (b != "" && a != "" && a != 0) ? sprintf("%.3f", b / a) : ""
      printf "%-6s %-5s %-19s %-23s %12s %12s %14s\n", part[1], part[2], part[3], part[4], shown(b), shown(a), ratio
    }
  }
' "$out"/before-*.csv "$out"/after-*.csv
