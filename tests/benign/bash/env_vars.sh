# Environment: HOME/TMPDIR/PATH/LANG/PWD, export to children, env -i/-u, readonly, $$ $PPID $RANDOM, ulimit, umask, uname.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -n $HOME && -d $HOME && -w $HOME ]] || fail "HOME $HOME"
[[ -n $TMPDIR && -d $TMPDIR ]] || fail "TMPDIR $TMPDIR"
[[ $PATH == *"/usr/bin"* ]] || fail "PATH $PATH"
[[ $LANG == C.UTF-8 ]] || fail "LANG $LANG"
[[ $PWD == "$(pwd -P)" || -d $PWD ]] || fail PWD
[[ -r main.sh || -r "$0" ]] || fail "script file readable"

unexported=1
export EXPORTED=yes
[[ $(bash -c 'echo "${EXPORTED:-}/${unexported:-}"') == "yes/" ]] || fail "export"
[[ $(FOO=temp bash -c 'echo $FOO') == temp && -z ${FOO:-} ]] || fail "per-command env"
[[ $(env -u EXPORTED bash -c 'echo "${EXPORTED:-gone}"') == gone ]] || fail "env -u"
[[ $(env -i PATH=/usr/bin:/bin bash -c 'env | grep -c .') -le 5 ]] || fail "env -i"
env | grep -q '^EXPORTED=yes$' || fail "env lists exported"
export -n EXPORTED
[[ $(bash -c 'echo "${EXPORTED:-unexported}"') == unexported ]] || fail "export -n"

readonly CONST=42
( CONST=1 ) 2>/dev/null && fail "readonly assignment"
[[ $CONST == 42 ]] || fail readonly

(( $$ > 0 && PPID > 0 )) || fail "pids"
[[ $(bash -c 'echo $PPID') == $$ ]] || fail "child PPID"
RANDOM=7; a=$RANDOM$RANDOM; RANDOM=7; b=$RANDOM$RANDOM
[[ $a == "$b" ]] || fail "seeded RANDOM"
(( SRANDOM >= 0 )) || fail SRANDOM
[[ $(id -u) =~ ^[0-9]+$ ]] || fail "id -u"
whoami >/dev/null 2>&1 || true
[[ -n $(uname -s) && -n $(uname -m) ]] || fail uname
[[ $(ulimit -n) =~ ^([0-9]+|unlimited)$ ]] || fail "ulimit -n"
[[ $(ulimit -u) =~ ^([0-9]+|unlimited)$ ]] || fail "ulimit -u"
[[ $(umask) =~ ^0[0-7]{3}$ ]] || fail umask
nproc >/dev/null || fail nproc
[[ -n $BASH_VERSION && ${BASH_VERSINFO[0]} -ge 5 ]] || fail "bash version"
[[ $(bash --version | head -1) == *bash* ]] || fail "bash --version"
# shell options and variables listed
[[ $(shopt -p extglob) == "shopt -"[su]" extglob" ]] || fail shopt
compgen -v | grep -qx HOME || fail "compgen -v"
[[ $(printenv LANG) == C.UTF-8 ]] || fail printenv
# cd and directory stack
mkdir -p d1/d2
pushd d1/d2 >/dev/null; [[ ${PWD##*/} == d2 ]] || fail pushd
popd >/dev/null; [[ -d d1 ]] || fail popd
(cd d1 && [[ $OLDPWD != "$PWD" ]]) || fail OLDPWD
cd ~ && cd - >/dev/null || fail "cd -"
rm -rf d1
echo OK
