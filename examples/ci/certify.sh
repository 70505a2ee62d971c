#!/bin/sh
# Five Up conformance in CI: certify against a baseline of known failures, then compare this
# run's report with the last one's (the ratchet). Copy it into your repository and set:
#   ENGINE_CMD  your engine's command (required), e.g. "node engine.js"
#   BASELINE    the baseline of known failures (default fiveup-known.yaml); when it does not
#               exist, this run writes it: commit it, and shrink it as you fix cases
#   REPORT      where this run's JSON report goes (default fiveup-report.json)
#   PREVIOUS    the JSON report of the last run on your main branch (optional); keep REPORT
#               as a CI artifact and hand it to the next run as PREVIOUS
# Exit status: 0 green; 1 a new failure, a baseline entry that passes again, or a case that
# passed in PREVIOUS and fails now; 2 a mistake in the set-up (the message says which).
set -u
: "${ENGINE_CMD:?set ENGINE_CMD to your engine's command, e.g. ENGINE_CMD=\"node engine.js\"}"
BASELINE=${BASELINE:-fiveup-known.yaml}
REPORT=${REPORT:-fiveup-report.json}
PREVIOUS=${PREVIOUS:-}

if [ ! -f "$BASELINE" ]; then
    # The baseline records the fresh cases' seed too: the next runs play the same ones.
    status=0
    fiveup certify --engine-cmd "$ENGINE_CMD" \
        --write-expected-failures "$BASELINE" || status=$?
    if [ "$status" -ge 2 ] || [ ! -f "$BASELINE" ]; then
        exit "$status"  # no baseline when the engine did not start (certify says so)
    fi
    echo "certify.sh: wrote the baseline $BASELINE: commit it"
fi

status=0
fiveup certify --engine-cmd "$ENGINE_CMD" --expected-failures "$BASELINE" \
    --format json --output "$REPORT" || status=$?
if [ "$status" -ne 0 ]; then
    exit "$status"
fi

if [ -n "$PREVIOUS" ] && [ -f "$PREVIOUS" ]; then
    fiveup compare "$PREVIOUS" "$REPORT" || exit $?
fi
