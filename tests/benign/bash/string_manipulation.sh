# Parameter expansion: length, case, substitution, prefix/suffix removal, substrings, regex.
fail() { echo "FAIL: $*" >&2; exit 1; }
s="Hello, World"
[[ ${#s} -eq 12 ]] || fail length
[[ ${s^^} == "HELLO, WORLD" && ${s,,} == "hello, world" ]] || fail case
[[ ${s:7} == World && ${s:0:5} == Hello && ${s: -3} == rld ]] || fail substring
[[ ${s/World/Bash} == "Hello, Bash" ]] || fail substitute
[[ ${s//l/L} == "HeLLo, WorLd" ]] || fail "substitute all"

path=/usr/local/lib/archive.tar.gz
[[ ${path##*/} == archive.tar.gz ]] || fail basename
[[ ${path%/*} == /usr/local/lib ]] || fail dirname
[[ ${path%%.*} == /usr/local/lib/archive ]] || fail "longest suffix"
[[ ${path#*.} == tar.gz ]] || fail "shortest prefix"

unset missing
[[ ${missing:-default} == default ]] || fail default
: "${missing:=assigned}"
[[ $missing == assigned ]] || fail assign
empty=""
[[ -z ${empty:+x} && ${s:+x} == x ]] || fail alternate

# regex with captures
if [[ "2024-03-15T10:20:30" =~ ^([0-9]{4})-([0-9]{2})-([0-9]{2})T ]]; then
  [[ ${BASH_REMATCH[1]}${BASH_REMATCH[2]}${BASH_REMATCH[3]} == 20240315 ]] || fail captures
else
  fail "regex did not match"
fi

# printf -v, repetition, trimming, reversing
printf -v line '%*s' 10 ''
line=${line// /-}
[[ $line == ---------- ]] || fail repeat
padded="   trim me   "
trimmed=${padded#"${padded%%[![:space:]]*}"}
trimmed=${trimmed%"${trimmed##*[![:space:]]}"}
[[ $trimmed == "trim me" ]] || fail "trim [$trimmed]"
rev=""
for (( i=${#s}-1; i>=0; i-- )); do rev+=${s:i:1}; done
[[ $rev == "dlroW ,olleH" ]] || fail reverse

# split on a delimiter, join with another
IFS=, read -r -a parts <<<"a,b,,d"
[[ ${#parts[@]} -eq 4 && -z ${parts[2]} ]] || fail split
joined=$(IFS=:; echo "${parts[*]}")
[[ $joined == "a:b::d" ]] || fail join

# UTF-8: length counts characters
u="héllo wörld"
[[ ${#u} -eq 11 ]] || fail "utf-8 length ${#u}"
[[ ${u^^} == "HÉLLO WÖRLD" ]] || fail "utf-8 upper ${u^^}"
# ${var@Q} and ${var@U}
q="it's"
[[ ${q@Q} == "'it'\\''s'" ]] || fail "@Q ${q@Q}"
echo OK
