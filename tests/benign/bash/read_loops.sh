# read loops: IFS field splitting, -r, -a, -d '', -n, files and process output, empty stdin.
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000:Alice A:/home/alice:/bin/bash\nbob:x:1001:1001::/home/bob:/usr/bin/zsh\n' > passwd.txt
users=() bash_users=0
while IFS=: read -r user _ uid _ gecos home shell; do
  users+=("$user@$uid")
  [[ $shell == */bash ]] && (( bash_users++ ))
done < passwd.txt
[[ "${users[*]}" == "root@0 alice@1000 bob@1001" && $bash_users -eq 2 ]] || fail "passwd parse: ${users[*]}"

# a last line without a trailing newline is still read
n=0
while IFS= read -r line || [[ -n $line ]]; do (( n++ )); done < <(printf 'a\nb\nno-newline')
(( n == 3 )) || fail "last line without newline: $n"

# -r keeps backslashes, plain read does not; IFS= keeps leading spaces
IFS= read -r raw <<<'  C:\path\to'
[[ $raw == '  C:\path\to' ]] || fail "read -r"
read cooked <<<'a\tb'
[[ $cooked == 'atb' ]] || fail "read without -r"

# NUL-delimited records
printf 'one\0two words\0three\0' > recs.bin
recs=()
while IFS= read -r -d '' r; do recs+=("$r"); done < recs.bin
[[ ${#recs[@]} -eq 3 && ${recs[1]} == "two words" ]] || fail "NUL records"

# fixed-size chunks and an array per line
read -r -n 3 chunk <<<"abcdef"
[[ $chunk == abc ]] || fail "read -n"
read -r -a fields <<<"  x   y z  "
[[ ${#fields[@]} -eq 3 ]] || fail "read -a"

# reading two files in lockstep through separate descriptors
printf '1\n2\n3\n' > left.txt; printf 'a\nb\nc\n' > right.txt
pairs=""
while read -r l <&3 && read -r r <&4; do pairs+="$l$r "; done 3<left.txt 4<right.txt
[[ $pairs == "1a 2b 3c " ]] || fail "lockstep: $pairs"

# stdin is empty: read fails at once, cat prints nothing
if read -r anything; then fail "stdin not empty"; fi
[[ -z $(cat) ]] || fail "cat of stdin"
# read with a timeout on a pipe that stays silent
if read -r -t 0.1 x < <(sleep 1); then fail "read -t"; fi
rm -f passwd.txt recs.bin left.txt right.txt
echo OK
