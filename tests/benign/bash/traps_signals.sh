# trap: EXIT in subshells, ERR, RETURN, self-sent signals, signals to children, ignored signals.
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$( ( trap 'echo cleanup' EXIT; echo work ) )
[[ $out == $'work\ncleanup' ]] || fail "EXIT trap: $out"

got_usr1=0
trap 'got_usr1=$((got_usr1 + 1))' USR1
kill -USR1 $$
kill -s USR1 $$
(( got_usr1 == 2 )) || fail "USR1 handler ran $got_usr1 times"
trap - USR1

# ERR trap with line number
err_line=$( ( trap 'echo "err at $LINENO"' ERR; false; true ) )
[[ $err_line == "err at "* ]] || fail "ERR trap: $err_line"

# a child that traps TERM and reports it
bash -c 'trap "echo caught TERM; exit 0" TERM; echo ready; while :; do sleep 0.01; done' > child.out &
child=$!
for _ in $(seq 100); do [[ -s child.out ]] && break; sleep 0.01; done
kill -TERM $child; wait $child; st=$?
(( st == 0 )) || fail "child exit $st"
grep -q 'caught TERM' child.out || fail "child trap output"
rm -f child.out

# an ignored signal is inherited ignored
( trap '' INT; bash -c 'kill -INT $$; echo survived' ) > ign.out
[[ $(cat ign.out) == survived ]] || fail "ignored INT"
rm -f ign.out

# trap -p lists handlers; RETURN trap in a function
trap 'echo bye' HUP
[[ $(trap -p HUP) == "trap -- 'echo bye' SIGHUP" ]] || fail "trap -p: $(trap -p HUP)"
trap - HUP
f() { trap 'echo returned' RETURN; echo body; }
[[ $(f) == $'body\nreturned' ]] || fail "RETURN trap"
trap - RETURN

# a signal number maps to 128+n, kill -l names signals
st=$( { ( kill -KILL $BASHPID ); echo $?; } 2>/dev/null )
(( st == 137 )) || fail "SIGKILL status $st"
[[ $(kill -l 15) == TERM ]] || fail "kill -l"
# the EXIT trap of the main shell runs last and prints OK
trap 'echo OK' EXIT
exit 0
