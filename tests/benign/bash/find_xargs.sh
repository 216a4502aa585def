# find (-name -type -size -newer -maxdepth -prune -exec -print0 -delete) with xargs (-0 -n -I -P).
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p proj/src/util proj/docs proj/build proj/.git
for f in main.c util/str.c util/str.h util/list.c; do printf 'int x; // %s\n' "$f" > "proj/src/$f"; done
echo "# readme" > proj/docs/README.md
echo "notes with space" > "proj/docs/my notes.txt"
head -c 5000 /dev/zero > proj/build/big.o
echo ref > proj/.git/HEAD

r=$(find proj -name '*.c' | sort | paste -sd,)
[[ $r == proj/src/main.c,proj/src/util/list.c,proj/src/util/str.c ]] || fail "find -name: $r"
[[ $(find proj -type d | wc -l) == 6 ]] || fail "find -type d"
[[ $(find proj -maxdepth 1 -type d | wc -l) == 5 ]] || fail "-maxdepth"
[[ $(find proj -name .git -prune -o -type f -print | wc -l) == 7 ]] || fail "-prune"
[[ $(find proj -type f -size +4k) == proj/build/big.o ]] || fail "-size"
[[ $(find proj -type f -empty | wc -l) == 0 ]] || fail "-empty"
[[ $(find proj -iname 'readme*' -printf '%f\n') == README.md ]] || fail "-printf"

# names with spaces survive -print0 | xargs -0
r=$(find proj -name '*.txt' -print0 | xargs -0 cat)
[[ $r == "notes with space" ]] || fail "xargs -0"
# total lines of all C sources via -exec +
r=$(find proj/src -name '*.[ch]' -exec cat {} + | wc -l)
[[ $r == 4 ]] || fail "-exec +"
# -exec \; runs once per file
r=$(find proj/src -name '*.h' -exec basename {} \;)
[[ $r == str.h ]] || fail "-exec ;"
# xargs batching and placeholders
[[ $(seq 1 7 | xargs -n 3 | wc -l) == 3 ]] || fail "xargs -n"
[[ $(printf 'a\nb\n' | xargs -I{} echo 'item-{}' | paste -sd,) == item-a,item-b ]] || fail "xargs -I"
r=$(seq 1 8 | xargs -P 4 -n 1 bash -c 'echo $(( $1 * $1 ))' _ | sort -n | paste -sd+ | bc)
[[ $r == 204 ]] || fail "xargs -P: $r"
[[ $(echo | xargs -r echo nonempty) == "" ]] || fail "xargs -r"

# -newer and -mtime, -delete
touch -d '2001-01-01' proj/docs/README.md
touch proj/stamp
[[ $(find proj/docs -newer proj/stamp | wc -l) == 0 ]] || fail "-newer"
[[ $(find proj -type f -mtime +365 -printf '%f\n') == README.md ]] || fail "-mtime"
find proj -name '*.o' -delete
[[ ! -e proj/build/big.o ]] || fail "-delete"
# find with -regex and -path, -not
[[ $(find proj -regextype egrep -regex '.*/(str|list)\.c' | wc -l) == 2 ]] || fail "-regex"
[[ $(find proj -path '*/util/*' -not -name '*.h' | wc -l) == 2 ]] || fail "-path -not"
rm -rf proj
echo OK
