#!/usr/bin/env bash
# Builds the documentation site with the toolchain's own docc: symbol graphs for each library module (with
# extension blocks, so that what Interop adds to Signal gets pages), checks that every public declaration returning a
# signal is in the guarantee 2 sweep of the tests, one `docc convert` per catalog (warnings are
# errors; every public symbol must be documented), checks that every code sample is mirrored by a test and that the
# migration table covers RAC 2.5's API, type-checks the doc comments' examples, then one merged static site.
# Output: .build-docs/site (git-ignored).
#
# Usage: Scripts/build-docs.sh            build the site
#        Scripts/build-docs.sh --preview  build, then serve it on http://localhost:8000 (needs python3)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-docs
site="$scratch/site"
rm -rf "$scratch/graphs" "$scratch/archives" "$scratch/merged.doccarchive" "$site"
mkdir -p "$scratch/graphs" "$scratch/archives"

echo "== symbol graphs"
# Emitted while compiling the library targets (SwiftPM's dump-symbol-graph also tries the test modules).
mkdir -p "$scratch/symbolgraph"
for target in AsyncSignals $( [ -d Sources/Interop ] && echo AsyncSignalsInterop ); do
  # ASYNCSIGNALS_DOCS: Interop imports AsyncSignals without re-exporting it here (see Sources/Interop/Exports.swift).
  swift build --scratch-path "$scratch" --target "$target" -Xswiftc -DASYNCSIGNALS_DOCS \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$scratch/symbolgraph" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public -Xswiftc -emit-extension-block-symbols
done
graphs="$scratch/symbolgraph"

echo "== guarantee 2 sweep"
# Every public declaration returning a signal, in these graphs, needs a row in the guarantee 2 sweep of the tests
# (Tests/*/…/Guarantee2Sweep*.swift), which disposes each one's subscription in its first value's callback.
swift Scripts/check-guarantee2-sweep.swift "$graphs"

# catalog:module pairs. The module's own symbol graph and its extension graphs (Module@Other) go together.
catalogs=("Docs.docc:AsyncSignals")
if [ -d Interop.docc ]; then catalogs+=("Interop.docc:AsyncSignalsInterop"); fi

# Each archive is built with link metadata (--enable-experimental-external-link-support) and is a dependency of
# the next ones, so that Interop.docc can link to AsyncSignals' symbols (``/AsyncSignals/Signal``). Links the
# other way (the main catalog to Interop's pages) are plain site paths (/documentation/asyncsignalsinterop/…).
archives=()
dependencies=()
for entry in "${catalogs[@]}"; do
  catalog=${entry%%:*}
  module=${entry##*:}
  echo "== docc convert $module ($catalog)"
  mkdir -p "$scratch/graphs/$module"
  cp "$graphs/$module.symbols.json" "$scratch/graphs/$module/"
  find "$graphs" -name "$module@*.symbols.json" -exec cp {} "$scratch/graphs/$module/" \;
  archive="$scratch/archives/$module.doccarchive"
  docc convert "$catalog" \
    --additional-symbol-graph-dir "$scratch/graphs/$module" \
    --output-dir "$archive" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.asyncsignals.$module" \
    --enable-experimental-external-link-support \
    ${dependencies[@]+"${dependencies[@]}"} \
    --warnings-as-errors \
    --experimental-documentation-coverage \
    --coverage-summary-level brief
  swift Scripts/check-doc-coverage.swift "$scratch/graphs/$module" \
    "$archive/documentation-coverage.json"
  archives+=("$archive")
  dependencies+=(--dependency "$PWD/$archive")
done

echo "== article links"
# <doc:Name> must name an article or landing page of the catalogs. docc also resolves it to a topic group or a
# symbol of that name without a word (<doc:Schedulers> once went to the Schedulers group, not the article).
articles=$(find Docs.docc Interop.docc -name '*.md' -exec basename {} .md \; | sort -u)
for name in $(grep -rhoE '<doc:[^>#]+' Docs.docc Interop.docc Sources | sed 's/^<doc://' | sort -u); do
  if ! grep -qxF "$name" <<<"$articles"; then
    echo "error: <doc:$name> names no article of Docs.docc or Interop.docc (a symbol is linked with \`\`$name\`\`)" >&2
    exit 1
  fi
done

echo "== doc-comment examples"
# The ```swift blocks of the doc comments, type-checked against the modules just built and a prelude of the names
# they use (Scripts/DocExamples/Prelude.swift); every one must compile.
swift Scripts/check-doc-examples.swift "$(swift build --scratch-path "$scratch" --show-bin-path)/Modules"

echo "== samples"
# Every code sample of the catalogs must be mirrored, line for line, by a test under Tests/*/Docs, which runs
# it (swift test); this keeps the samples the reader sees and the ones the tests run the same.
swift Scripts/check-doc-samples.swift

echo "== migration table"
# Every entry of the RAC 2.5 API listing (Reference/RAC-API.md) needs a row in MigratingFromRAC.md.
swift Scripts/check-migration-table.swift "${RAC_API:-Reference/RAC-API.md}"

echo "== site"
if [ "${#archives[@]}" -gt 1 ]; then
  docc merge "${archives[@]}" --output-path "$scratch/merged.doccarchive" \
    --synthesized-landing-page-name AsyncSignals --synthesized-landing-page-kind Package
  docc process-archive transform-for-static-hosting "$scratch/merged.doccarchive" --output-path "$site"
else
  docc process-archive transform-for-static-hosting "${archives[0]}" --output-path "$site"
fi
# Links between the two catalogs, and to pages docc synthesises (the extended module FoundationEssentials), are plain
# site paths, which docc cannot check: check that each one has a page.
for path in $(grep -rhoE '\]\(/documentation/[^)#]*' Docs.docc Interop.docc | sed 's/^](//' | sort -u); do
  page="$site/data$(printf '%s' "$path" | tr '[:upper:]' '[:lower:]').json"
  if [ ! -f "$page" ]; then
    echo "error: the link $path (in Docs.docc or Interop.docc) has no page in the site" >&2
    exit 1
  fi
done

echo "Documentation site: $site (open $site/documentation/asyncsignals/index.html through a web server)"

if [ "${1:-}" = "--preview" ]; then
  echo "Serving on http://localhost:8000/documentation/asyncsignals"
  cd "$site" && exec python3 -m http.server 8000
fi
