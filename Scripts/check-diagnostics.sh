#!/usr/bin/env bash
# Proves the compile-time diagnostics of the common mistakes (a `@Test` cannot: the code it would test does not
# compile). Each snippet in Scripts/Diagnostics is type-checked with `swiftc -typecheck` against the built
# modules. A snippet with `// expect-error: TEXT` lines must fail, with each TEXT in an `error:` line of the
# output; a snippet without any must type-check with no error and no warning (the control: the fixes the
# messages suggest compile, and the short forms still work on signals that cannot fail).
#
# Usage: Scripts/check-diagnostics.sh [scratch-path]   (default .build; CI passes .build-werror)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${1:-.build}

swift build --scratch-path "$scratch" --target AsyncSignalsInterop >/dev/null
modules="$(swift build --scratch-path "$scratch" --show-bin-path)/Modules"

failures=0
for snippet in Scripts/Diagnostics/*.swift; do
  status=0
  output=$(swiftc -typecheck -swift-version 6 -I "$modules" "$snippet" 2>&1) || status=$?
  expected=$(sed -n 's|^// expect-error: ||p' "$snippet")
  if [ -z "$expected" ]; then
    if [ "$status" -ne 0 ] || grep -q "warning:" <<<"$output"; then
      echo "FAIL $snippet: expected to type-check cleanly, got:" >&2
      echo "$output" >&2
      failures=$((failures + 1))
      continue
    fi
  else
    if [ "$status" -eq 0 ]; then
      echo "FAIL $snippet: expected a compile error, but it type-checked" >&2
      failures=$((failures + 1))
      continue
    fi
    while IFS= read -r text; do
      if ! grep "error:" <<<"$output" | grep -qF -- "$text"; then
        echo "FAIL $snippet: no error with the text: $text" >&2
        echo "$output" >&2
        failures=$((failures + 1))
      fi
    done <<<"$expected"
  fi
  echo "ok   $snippet"
done
[ "$failures" -eq 0 ] || { echo "check-diagnostics: $failures failure(s)" >&2; exit 1; }
