# diffutils: diff (normal, -u, -q, -r, -i, -w, -y) exit codes, cmp, diff3, sdiff.
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'apple\nbanana\ncherry\ndate\n' > old.txt
printf 'apple\nblueberry\ncherry\ndate\nelderberry\n' > new.txt
cp old.txt same.txt
diff -q old.txt same.txt >/dev/null; (( $? == 0 )) || fail "identical files"
diff -q old.txt new.txt >/dev/null; (( $? == 1 )) || fail "different files"
diff old.txt missing.txt >/dev/null 2>&1; (( $? == 2 )) || fail "missing file is trouble"

normal=$(diff old.txt new.txt)
[[ $normal == $'2c2\n< banana\n---\n> blueberry\n4a5\n> elderberry' ]] || fail "normal diff: $normal"
u=$(diff -u --label a --label b old.txt new.txt)
[[ $(head -3 <<<"$u") == $'--- a\n+++ b\n@@ -1,4 +1,5 @@' ]] || fail "unified header"
[[ $(grep -c '^+[a-z]' <<<"$u") == 2 && $(grep -c '^-[a-z]' <<<"$u") == 1 ]] || fail "unified body"

printf 'Hello  World\n' > a.txt; printf 'hello world\n' > b.txt
diff -q a.txt b.txt >/dev/null && fail "case differs"
diff -q -i -w a.txt b.txt >/dev/null || fail "diff -i -w"
[[ $(diff -y -W 30 a.txt b.txt | grep -c '|') == 1 ]] || fail "diff -y"

mkdir -p d1/sub d2/sub
echo 1 > d1/sub/f; echo 2 > d2/sub/f; echo only > d1/extra
r=$(diff -rq d1 d2 | sort)
[[ $r == $'Files d1/sub/f and d2/sub/f differ\nOnly in d1: extra' ]] || fail "diff -r: $r"

cmp -s old.txt same.txt || fail "cmp same"
r=$(cmp old.txt new.txt); (( $? == 1 )) || fail "cmp status"
[[ $r == *"differ: byte 8, line 2"* ]] || fail "cmp message: $r"
[[ $(cmp -l <(printf 'abc') <(printf 'abd') | awk '{print $1}') == 3 ]] || fail "cmp -l"

printf 'a\nb\nc\n' > base; printf 'A\nb\nc\n' > mine; printf 'a\nb\nC\n' > theirs
[[ $(diff3 -m mine base theirs | paste -sd,) == A,b,C ]] || fail "diff3 merge"
# diff of command output through process substitution
[[ $(diff <(seq 3) <(seq 3); echo $?) == 0 ]] || fail "diff of pipes"
rm -rf old.txt new.txt same.txt a.txt b.txt d1 d2 base mine theirs
echo OK
