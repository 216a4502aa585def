# Shell arithmetic: (( )), let, bases, bit operations, 64-bit wrap, ternaries, loops.
fail() { echo "FAIL: $*" >&2; exit 1; }
(( 7 + 3 * 2 == 13 )) || fail precedence
(( 17 / 5 == 3 && 17 % 5 == 2 && -17 / 5 == -3 )) || fail division
(( 2 ** 10 == 1024 )) || fail power
(( 0xff == 255 && 010 == 8 && 2#1011 == 11 && 36#z == 35 )) || fail bases
(( (6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5 && (1 << 20) == 1048576 && (~0) == -1 )) || fail bits
max=9223372036854775807
(( max + 1 == -9223372036854775807 - 1 )) || fail "64-bit wrap"
i=0; let i+=5 i*=3
(( i == 15 )) || fail let
x=$(( i > 10 ? 1 : 0 ))
(( x == 1 )) || fail ternary
n=5; (( n++ )); (( ++n )); (( n-- ))
(( n == 6 )) || fail increments
declare -i acc=0
acc+=10; acc='acc * 3'
(( acc == 30 )) || fail "declare -i"

# gcd, primes, fibonacci
gcd() { local a=$1 b=$2; while (( b )); do (( a %= b )); (( a ^= b, b ^= a, a ^= b )); done; echo "$a"; }
[[ $(gcd 1071 462) == 21 ]] || fail gcd
primes=()
for (( k=2; k<60; k++ )); do
  p=1; for (( d=2; d*d<=k; d++ )); do (( k % d == 0 )) && { p=0; break; }; done
  (( p )) && primes+=($k)
done
[[ ${#primes[@]} -eq 17 && ${primes[-1]} -eq 59 ]] || fail "primes ${primes[*]}"
a=0 b=1
for (( k=0; k<90; k++ )); do (( t = a + b, a = b, b = t )); done
(( a == 2880067194370816120 )) || fail "fib(90)=$a"
# division by zero is an error, caught in a subshell
if ( : $(( 1 / 0 )) ) 2>/dev/null; then fail "division by zero"; fi
echo OK
