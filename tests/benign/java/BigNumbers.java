import java.math.*;

public class Main {
    static void eq(Object a, Object b) {
        if (!a.equals(b)) throw new AssertionError(a + " != " + b);
    }

    public static void main(String[] args) {
        BigInteger f = BigInteger.ONE;
        for (int i = 2; i <= 50; i++) f = f.multiply(BigInteger.valueOf(i));
        eq(f.toString(), "30414093201713378043612608166064768844377641568960512000000000000");
        eq(BigInteger.TWO.pow(127).subtract(BigInteger.ONE).isProbablePrime(50), true);
        eq(BigInteger.valueOf(3).modPow(BigInteger.valueOf(200), BigInteger.valueOf(1_000_000_007L)),
           new BigInteger("3").modPow(new BigInteger("200"), new BigInteger("1000000007")));
        eq(new BigInteger("123456789012345678901234567890").gcd(new BigInteger("987654321098765432109876543210")),
           new BigInteger("9000000000900000000090"));
        eq(new BigInteger("ff", 16).toString(2), "11111111");
        eq(BigInteger.valueOf(17).modInverse(BigInteger.valueOf(3120)), BigInteger.valueOf(2753));
        eq(new BigInteger("10").pow(30).sqrt(), new BigInteger("10").pow(15));

        BigDecimal a = new BigDecimal("0.1"), b = new BigDecimal("0.2");
        eq(a.add(b), new BigDecimal("0.3"));
        eq(BigDecimal.ONE.divide(BigDecimal.valueOf(3), 20, RoundingMode.HALF_UP).toPlainString(), "0.33333333333333333333");
        eq(new BigDecimal("2.345").setScale(2, RoundingMode.HALF_EVEN), new BigDecimal("2.34"));
        eq(new BigDecimal("2.355").setScale(2, RoundingMode.HALF_EVEN), new BigDecimal("2.36"));
        eq(new BigDecimal("1.50").compareTo(new BigDecimal("1.5")), 0);
        eq(new BigDecimal("1.50").equals(new BigDecimal("1.5")), false);
        eq(new BigDecimal("1.50").stripTrailingZeros().toPlainString(), "1.5");
        BigDecimal sqrt2 = new BigDecimal(2).sqrt(new MathContext(30));
        eq(sqrt2.toString(), "1.41421356237309504880168872421");
        try {
            BigDecimal.ONE.divide(BigDecimal.valueOf(3));
            throw new AssertionError("non-terminating");
        } catch (ArithmeticException expected) { }
        // compound interest on 1000.00 at 5% for 10 years, rounded to cents
        BigDecimal p = new BigDecimal("1000.00");
        for (int y = 0; y < 10; y++) p = p.multiply(new BigDecimal("1.05")).setScale(2, RoundingMode.HALF_UP);
        eq(p, new BigDecimal("1628.91"));
        eq(Math.addExact(1, 2), 3);
        try {
            Math.multiplyExact(Long.MAX_VALUE, 2);
            throw new AssertionError("overflow");
        } catch (ArithmeticException expected) { }
        System.out.println("50! has " + f.toString().length() + " digits");
        System.out.println("OK");
    }
}
