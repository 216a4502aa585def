# Missing and unusable commands: status 127/126, command -v, type, hash, command_not_found_handle.
fail() { echo "FAIL: $*" >&2; exit 1; }
no_such_command_xyz 2>/dev/null; st=$?
(( st == 127 )) || fail "missing command status $st"
err=$(no_such_command_xyz 2>&1)
[[ $err == *"no_such_command_xyz: command not found"* ]] || fail "message: $err"
/no/such/path/tool 2>/dev/null; (( $? == 127 )) || fail "missing path"

# a file that is not executable: 126
echo 'echo hi' > notexec.sh
chmod 644 notexec.sh
./notexec.sh 2>/dev/null; (( $? == 126 )) || fail "non-executable status"
# a directory is not a command either
mkdir -p adir; ./adir 2>/dev/null; (( $? == 126 )) || fail "directory status"
# but it can be run by bash, and sourced
[[ $(bash notexec.sh) == hi && $(. ./notexec.sh) == hi ]] || fail "bash file / source"

command -v ls >/dev/null || fail "command -v ls"
command -v no_such_command_xyz >/dev/null && fail "command -v missing"
[[ $(type -t cd) == builtin && $(type -t ls) == file && $(type -t if) == keyword ]] || fail "type -t"
f() { :; }; alias ll='ls -l'
[[ $(type -t f) == function ]] || fail "type function"
[[ $(type -P sort) == */sort ]] || fail "type -P"
hash sort; hash -t sort >/dev/null || fail hash
for tool in grep sed awk sort uniq cut tr paste join find xargs diff bc jq date; do
  command -v "$tool" >/dev/null || fail "missing $tool"
done

# command_not_found_handle lets a script fall back
command_not_found_handle() { echo "fallback for $1 ($#)"; return 3; }
out=$(frobnicate a b); st=$?
[[ $out == "fallback for frobnicate (3)" && $st == 3 ]] || fail "handler: $out $st"
unset -f command_not_found_handle
# checking before running, with a fallback tool chain
pick() { local c; for c in "$@"; do command -v "$c" >/dev/null && { echo "$c"; return; }; done; return 1; }
[[ $(pick python3x gawk awk) == gawk ]] || [[ $(pick python3x gawk awk) == awk ]] || fail pick
pick nothing1 nothing2 || true
# exec of a missing command in a subshell
( exec no_such_command_xyz ) 2>/dev/null; (( $? == 127 )) || fail "exec missing"
rm -rf notexec.sh adir
echo OK
