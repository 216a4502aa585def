// math/big (Int, Rat, Float), math, math/bits and seeded math/rand.
package main

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand"
	"os"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	f := big.NewInt(1)
	for i := int64(2); i <= 50; i++ {
		f.Mul(f, big.NewInt(i))
	}
	check(f.String() == "30414093201713378043612608166064768844377641568960512000000000000", "50!")
	a, b := big.NewInt(0), big.NewInt(1)
	for i := 0; i < 200; i++ {
		a.Add(a, b)
		a, b = b, a
	}
	check(a.String() == "280571172992510140037611932413038677189525", "fib200")
	p, _ := new(big.Int).SetString("170141183460469231731687303715884105727", 10) // 2^127-1
	check(p.ProbablyPrime(20), "mersenne prime")
	e := new(big.Int).Exp(big.NewInt(2), big.NewInt(127), nil)
	check(e.Sub(e, big.NewInt(1)).Cmp(p) == 0, "exp")
	m := new(big.Int).Exp(big.NewInt(3), big.NewInt(1000), big.NewInt(1000007))
	check(m.Int64() > 0 && m.Int64() < 1000007, "modexp")
	g := new(big.Int).GCD(nil, nil, big.NewInt(462), big.NewInt(1071))
	check(g.Int64() == 21, "gcd")
	q, r := new(big.Int).QuoRem(big.NewInt(-7), big.NewInt(2), new(big.Int))
	check(q.Int64() == -3 && r.Int64() == -1, "quorem")
	check(new(big.Int).Sqrt(big.NewInt(1000000)).Int64() == 1000, "sqrt")
	h, ok := new(big.Int).SetString("ffffffffffffffffffffffff", 16)
	check(ok && h.BitLen() == 96, "hex")

	rat := big.NewRat(1, 3)
	rat.Add(rat, big.NewRat(1, 6))
	check(rat.String() == "1/2", "rat")
	sum := new(big.Rat)
	for i := int64(1); i <= 10; i++ {
		sum.Add(sum, big.NewRat(1, i))
	}
	check(sum.String() == "7381/2520", "harmonic")

	bf := new(big.Float).SetPrec(200).SetInt64(2)
	bf.Sqrt(bf)
	check(bf.Text('f', 30) == "1.414213562373095048801688724210", "bigfloat sqrt "+bf.Text('f', 30))

	check(math.Abs(math.Sqrt(2)*math.Sqrt(2)-2) < 1e-15, "sqrt")
	check(math.IsInf(math.Inf(1), 1) && math.IsNaN(math.NaN()), "inf nan")
	check(math.Floor(-1.5) == -2 && math.Ceil(1.2) == 2 && math.Trunc(-1.7) == -1 && math.Round(2.5) == 3, "rounding")
	check(math.Abs(math.Sin(math.Pi/2)-1) < 1e-15 && math.Abs(math.Log(math.E)-1) < 1e-15, "trig log")
	check(math.MaxInt64 == 1<<63-1 && math.Hypot(3, 4) == 5, "consts")
	check(bits.OnesCount64(0xff00ff) == 16 && bits.LeadingZeros32(1) == 31 && bits.Reverse8(1) == 128, "bits")
	hi, lo := bits.Mul64(1<<63, 4)
	check(hi == 2 && lo == 0, "mul64")

	rng := rand.New(rand.NewSource(42))
	x := rng.Intn(1000)
	rng2 := rand.New(rand.NewSource(42))
	check(rng2.Intn(1000) == x, "seeded rand deterministic")
	perm := rng.Perm(10)
	seen := 0
	for _, v := range perm {
		seen |= 1 << v
	}
	check(seen == 1023, "perm")
	mean := 0.0
	for i := 0; i < 100000; i++ {
		mean += rng.Float64()
	}
	mean /= 100000
	check(math.Abs(mean-0.5) < 0.01, "uniform mean")
	fmt.Println("OK")
}
