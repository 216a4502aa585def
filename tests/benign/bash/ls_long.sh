# What agents run first in a working directory: ls -l, ls -la, ls -lh,
# stat, du, cp -a, with nothing on stderr (ls reads each file's ACL and
# security label; an allowlist without the xattr reads makes it warn
# "Operation not permitted" on every file).
fail() { echo "FAIL: $*" >&2; exit 1; }
echo hello > a.txt
mkdir -p sub/deeper && printf 'x%.0s' {1..2000} > sub/deeper/big.bin
ln -s a.txt link.txt
err=$( { ls -l; ls -la; ls -lh sub; ls -lR .; ls -l /; ls -ld /tmp /usr/bin; } 2>&1 >/dev/null )
[[ -z $err ]] || fail "ls wrote to stderr: $err"
long=$(ls -l a.txt)
[[ $long == -rw-r--r--* && $long == *" 6 "* && $long == *a.txt ]] || fail "ls -l a.txt: $long"
[[ $(ls -l link.txt) == *"link.txt -> a.txt" ]] || fail "ls -l of a link"
[[ $(ls -la | head -1) == total* ]] || fail "ls -la total"
err=$( { stat a.txt; stat -c '%s %U' sub/deeper/big.bin; du -sh sub; cp -a sub sub2; ls -l sub2/deeper; } 2>&1 >/dev/null )
[[ -z $err ]] || fail "stat, du or cp -a wrote to stderr: $err"
[[ $(stat -c %s sub2/deeper/big.bin) == 2000 ]] || fail "cp -a size"
[[ $(stat -c %s a.txt) == 6 ]] || fail "stat size"
rm -r sub2 link.txt
echo OK
