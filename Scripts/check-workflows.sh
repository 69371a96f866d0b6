#!/usr/bin/env bash
# The static check of the GitHub Actions workflows, the only check they get on this machine (no macOS runner
# here: .github/workflows/apple.yml has not run yet). Each *.yml and *.yaml file is parsed with python3 and PyYAML
# (a duplicate key is an error, as it is for GitHub), and its shape is checked: a top-level `on` and `jobs`, every
# job with a `runs-on` and a non-empty `steps` list (or a `uses` of a reusable workflow instead), every step with
# a `run` or a `uses` (not both). Then actionlint, if it is on PATH (it knows the full schema, the expressions and,
# with shellcheck, the scripts); without it, the run says that it skipped it.
#
#   Scripts/check-workflows.sh              # .github/workflows
#   Scripts/check-workflows.sh DIRECTORY    # another folder of workflows (the self-check of a broken copy)
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${1:-.github/workflows}"
if [[ ! -d "$dir" ]]; then
  echo "check-workflows: no folder $dir" >&2
  exit 1
fi
shopt -s nullglob
files=("$dir"/*.yml "$dir"/*.yaml)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "check-workflows: no *.yml or *.yaml file in $dir" >&2
  exit 1
fi

if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "check-workflows: python3 cannot import yaml (PyYAML). Install it: apt-get install python3-yaml," \
    "or pip install pyyaml" >&2
  exit 1
fi

python3 - "${files[@]}" <<'PYTHON'
import sys
import yaml


class Loader(yaml.SafeLoader):
  """SafeLoader that rejects a key given twice in one mapping (PyYAML keeps the last one silently)."""

  def construct_mapping(self, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
      key = self.construct_object(key_node, deep=deep)
      if key in seen:
        raise yaml.constructor.ConstructorError(
          None, None, f"duplicate key {key!r}", key_node.start_mark)
      seen.add(key)
    return super().construct_mapping(node, deep)


def problems(workflow):
  """The shape errors of one parsed workflow, as 'where: what' lines."""
  if not isinstance(workflow, dict):
    return ["top level: not a mapping"]
  found = []
  # YAML 1.1 reads a bare `on` as the boolean true, and PyYAML follows it: accept the key in either form.
  if "on" not in workflow and True not in workflow:
    found.append("top level: no `on` (the events that trigger the workflow)")
  jobs = workflow.get("jobs")
  if not isinstance(jobs, dict) or not jobs:
    found.append("top level: no `jobs`, or not a non-empty mapping")
    return found
  for name, job in jobs.items():
    where = f"jobs.{name}"
    if not isinstance(job, dict):
      found.append(f"{where}: not a mapping")
      continue
    if "uses" in job:  # calls a reusable workflow: no runner, no steps of its own
      continue
    if not job.get("runs-on"):
      found.append(f"{where}: no `runs-on`")
    steps = job.get("steps")
    if not isinstance(steps, list) or not steps:
      found.append(f"{where}: no `steps`, or not a non-empty list")
      continue
    for index, step in enumerate(steps):
      label = f"{where}.steps[{index}]"
      if isinstance(step, dict) and step.get("name"):
        label += f" ({step['name']})"
      if not isinstance(step, dict):
        found.append(f"{label}: not a mapping")
      elif "run" in step and "uses" in step:
        found.append(f"{label}: both `run` and `uses`")
      elif not step.get("run") and not step.get("uses"):
        found.append(f"{label}: neither `run` nor `uses`")
  return found


failures = 0
for path in sys.argv[1:]:
  try:
    with open(path, encoding="utf-8") as file:
      workflow = yaml.load(file, Loader=Loader)
  except yaml.YAMLError as error:
    print(f"FAIL {path}: not valid YAML:\n{error}", file=sys.stderr)
    failures += 1
    continue
  found = problems(workflow)
  if found:
    for line in found:
      print(f"FAIL {path}: {line}", file=sys.stderr)
    failures += 1
  else:
    jobs = ", ".join(workflow["jobs"])
    print(f"ok   {path} (jobs: {jobs})")
if failures:
  print(f"check-workflows: {failures} workflow file(s) failed", file=sys.stderr)
  sys.exit(1)
PYTHON

if command -v actionlint >/dev/null; then
  actionlint "${files[@]}"
  echo "ok   actionlint"
else
  echo "skip actionlint: not on PATH (only the YAML parse and the shape above were checked)"
fi
