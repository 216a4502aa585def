# Exact arithmetic: BigDecimal (money, precision, rounding modes), Rational, Complex, big Integers, Float pitfalls.
require "bigdecimal"
require "bigdecimal/util"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

check 0.1 + 0.2 != 0.3 && (0.1 + 0.2 - 0.3).abs < Float::EPSILON, "float pitfall"
check BigDecimal("0.1") + BigDecimal("0.2") == BigDecimal("0.3"), "BigDecimal exact"
price = BigDecimal("19.99")
total = (price * 3 * BigDecimal("1.0825")).round(2)
check total.to_s("F") == "64.92" && total.to_digits == "64.92", "money #{total.to_s('F')}"
check BigDecimal("2.5").round(0, :half_even) == 2 && BigDecimal("3.5").round(0, :half_even) == 4, "banker's rounding"
check BigDecimal("2.5").round(0, :half_up) == 3 && BigDecimal("-2.5").round(0, :half_down) == -2, "half up/down"
check BigDecimal("1.23456").truncate(3).to_s == "0.1234e1" && BigDecimal("1.2").floor == 1 && BigDecimal("1.2").ceil == 2, "truncate/floor/ceil"
third = BigDecimal("1").div(BigDecimal("3"), 50)
check third.to_s("F") == "0." + "3" * 50, "division precision"
check BigDecimal("2").sqrt(30).to_s("F").start_with?("1.41421356237309504880168872420969"), "sqrt"
check "12.345".to_d == BigDecimal("12.345") && 5.to_d.is_a?(BigDecimal) && BigDecimal("1e-20").exponent == -19, "to_d/exponent"
check BigDecimal("Infinity").infinite? == 1 && BigDecimal("NaN").nan?, "special values"
check (BigDecimal("abc") rescue ArgumentError) == ArgumentError, "invalid input"
sum = (1..1000).map { BigDecimal("0.001") }.sum
check sum == 1, "sum of BigDecimals"

r = Rational(1, 3) + Rational(1, 6)
check r == Rational(1, 2) && r.numerator == 1 && r.denominator == 2, "Rational"
check 3r / 4 == 0.75r && (1/3r).to_f.round(5) == 0.33333 && 0.75.to_r == 3r / 4, "rational literals"
harmonic = (1..10).sum { Rational(1, _1) }
check harmonic == Rational(7381, 2520), "harmonic #{harmonic}"
check Rational("2/4") == 1/2r && 1.5.rationalize(Rational(1, 100)) == 3/2r && Rational(5, 3).floor == 1, "parse/rationalize"
check Rational(7, 2).round == 4 && Rational(-7, 2).truncate == -3 && Rational(1, 3).round(2) == Rational(33, 100), "rational rounding"

c = Complex(3, 4)
check c.abs == 5 && c.conjugate == Complex(3, -4) && c * Complex::I == Complex(-4, 3), "Complex"
check (1 + 2i) ** 2 == Complex(-3, 4) && Complex.polar(1, Math::PI / 2).real.abs < 1e-12, "complex literal/polar"
check Complex("1+2i") == Complex(1, 2) && c.rectangular == [3, 4], "complex parse"

big = 2**200
check big.to_s.size == 61 && big.digits.sum == 256 && (big + 1).odd?, "bignum"
check (1..50).reduce(:*) == 30_414_093_201_713_378_043_612_608_166_064_768_844_377_641_568_960_512_000_000_000_000, "50!"
check 10.pow(100, 7) == 4 && 123_456_789.gcd(987_654_321) == 9 && 12.lcm(18) == 36, "pow mod/gcd/lcm"
check Integer.sqrt(10**40) == 10**20 && (10**20).bit_length == 67 && 255.to_s(2) == "11111111" && "ff".to_i(16) == 255, "Integer helpers"
check 7.fdiv(2) == 3.5 && -7 / 2 == -4 && -7 % 3 == 2 && -7.remainder(3) == -1 && 7.divmod(-2) == [-4, -1], "division semantics"
check 1e308 * 10 == Float::INFINITY && (0.0 / 0.0).nan? && 1.0.next_float > 1.0 && 3.7.round(half: :even) == 4, "Float edges"
check 1234567.89.round(-2) == 1234600 && 12.3456.round(2) == 12.35 && 10.0.to_s == "10.0" && 1e20.to_i == 10**20, "Float rounding"
check Math.sqrt(16) == 4 && Math.log(Math::E) == 1 && Math.hypot(3, 4) == 5 && Math.log2(1024) == 10 && Math.cbrt(27).round == 3, "Math"
check (Math.sqrt(-1) rescue Math::DomainError) == Math::DomainError && Integer("1f", 16) == 31 && Integer("0b101") == 5, "DomainError/Integer parse"
check Float("1.5e3") == 1500.0 && (Float("x") rescue :bad) == :bad && "3.9kg".to_f == 3.9, "Float parse"
puts "OK"
