# Error handling: set -e / -u / -o pipefail, ||, &&, if, errexit in subshells, ERR traps, $? and PIPESTATUS.
fail() { echo "FAIL: $*" >&2; exit 1; }
# set -e stops a script at the first failure
out=$(bash -c 'set -e; echo one; false; echo two' 2>&1); st=$?
[[ $out == one && $st == 1 ]] || fail "errexit: $out $st"
# ... but not inside conditions, || or &&
out=$(bash -c 'set -e; if false; then :; fi; false || true; false && true; echo survived')
[[ $out == survived ]] || fail "errexit exemptions: $out"
# set -u: unset variables are errors
out=$(bash -c 'set -u; echo "$undefined_thing"' 2>&1); st=$?
(( st != 0 )) && [[ $out == *unbound* ]] || fail "nounset: $out"
bash -c 'set -u; echo "${undefined_thing:-fine}"' >/dev/null || fail "nounset default"
# pipefail reports the rightmost failure
bash -c 'set -o pipefail; exit 0 | false | true'; (( $? == 1 )) || fail pipefail
bash -c 'false | true'; (( $? == 0 )) || fail "no pipefail"
# a strict script with an ERR trap reporting the failing command
out=$(bash -c 'set -Eeuo pipefail
trap '\''echo "failed: $BASH_COMMAND (line $LINENO)" >&2'\'' ERR
step() { grep -q needle <<<"haystack"; }
step
echo unreachable' 2>&1); st=$?
[[ $st == 1 && $out == *"failed: grep -q needle"* && $out != *unreachable* ]] || fail "ERR trap: $out"
# exit codes
bash -c 'exit 300'; (( $? == 44 )) || fail "exit wraps mod 256"
( exit 255 ); (( $? == 255 )) || fail "exit 255"
! true; (( $? == 1 )) || fail "negation"
# running a command and capturing both status and output
if out=$(ls /definitely/not/here 2>&1); then fail "ls succeeded"; fi
[[ -n $out ]] || fail "error output captured"
# retry loop
attempts=0
until (( ++attempts >= 3 )); do false; done
(( attempts == 3 )) || fail retry
# set -e within this script, then disabled again
set -e
result=$( { false || echo recovered; } )
set +e
[[ $result == recovered ]] || fail "set -e recovery"
echo OK
