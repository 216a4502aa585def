// Wide and floating-point arithmetic: u128/i128 (factorials, Fibonacci, modular exponentiation, Miller-Rabin,
// mul-overflow detection), f64 math (sqrt, trig, exp/ln, hypot, fma, rounding modes, epsilon comparisons, NaN/inf).
fn mod_pow(mut b: u128, mut e: u128, m: u128) -> u128 {
    let mut r = 1u128;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n % p == 0 {
            return n == p;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'outer: for a in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut x = mod_pow(a as u128, d as u128, n as u128) as u64;
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 0..s - 1 {
            x = ((x as u128 * x as u128) % n as u128) as u64;
            if x == n - 1 {
                continue 'outer;
            }
        }
        return false;
    }
    true
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn main() {
    let fact: u128 = (1..=34u128).product();
    assert_eq!(fact.to_string(), "295232799039604140847618609643520000000");
    assert_eq!((1..=35u128).try_fold(1u128, |a, x| a.checked_mul(x)), None);
    let (mut a, mut b) = (0u128, 1u128);
    for _ in 0..180 {
        let t = a + b;
        a = b;
        b = t;
    }
    assert_eq!(a, 18547707689471986212190138521399707760);
    assert_eq!(u128::MAX.count_ones(), 128);
    assert_eq!(i128::MIN.checked_abs(), None);
    assert_eq!((-170141183460469231731687303715884105728i128).to_string().len(), 40);
    assert_eq!(u128::from_str_radix("ffffffffffffffffffffffffffffffff", 16), Ok(u128::MAX));
    assert_eq!((u64::MAX as u128) * (u64::MAX as u128), 340282366920938463426481119284349108225);
    let hi_lo = |x: u128| ((x >> 64) as u64, x as u64);
    assert_eq!(hi_lo(1u128 << 100), (1 << 36, 0));
    assert_eq!(gcd(2u128.pow(100), 6u128.pow(40)), 2u128.pow(40));
    assert_eq!(mod_pow(2, 1_000_000, 1_000_000_007), 235042059);

    assert!(is_prime(1_000_000_007) && is_prime(18446744073709551557) && !is_prime(18446744073709551555));
    assert!(!is_prime(3215031751)); // strong pseudoprime to bases 2,3,5,7
    let count = (1..10_000u64).filter(|&n| is_prime(n)).count();
    assert_eq!(count, 1229);

    let eps = 1e-12;
    assert!((2f64.sqrt().powi(2) - 2.0).abs() < eps);
    assert!((std::f64::consts::PI.sin()).abs() < eps);
    assert!((1f64.exp().ln() - 1.0).abs() < eps);
    assert_eq!(3f64.hypot(4.0), 5.0);
    assert_eq!(2f64.mul_add(3.0, 1.0), 7.0);
    assert_eq!((2.5f64.round(), (-2.5f64).round(), 2.7f64.floor(), (-2.7f64).ceil(), 2.7f64.trunc()), (3.0, -3.0, 2.0, -2.0, 2.0));
    assert!((0.1f64 + 0.2 - 0.3).abs() < f64::EPSILON);
    assert!(f64::NAN != f64::NAN && f64::NAN.is_nan());
    assert!((1.0f64 / 0.0).is_infinite() && (-1.0f64 / 0.0) < 0.0);
    assert_eq!(f64::MAX.to_bits() >> 52, 0x7fe);
    assert_eq!((1.0f64).atan2(1.0), std::f64::consts::FRAC_PI_4);
    assert!((10f64.log10() - 1.0).abs() < eps && (8f64.log2() - 3.0).abs() < eps && (27f64.cbrt() - 3.0).abs() < eps);
    assert_eq!(f64::from_bits(0x3ff0000000000000), 1.0);
    assert_eq!(1.5f32 as f64, 1.5);
    assert_eq!((7.0f64).rem_euclid(-3.0), 1.0);
    assert_eq!(9.0f64.max(f64::NAN), 9.0);
    assert_eq!(0.5f64.to_degrees(), 28.64788975654116);
    // numerical integration of sin over [0, pi] with Simpson's rule
    let n = 1000;
    let h = std::f64::consts::PI / n as f64;
    let mut s = 0.0f64.sin() + std::f64::consts::PI.sin();
    for i in 1..n {
        s += if i % 2 == 1 { 4.0 } else { 2.0 } * (i as f64 * h).sin();
    }
    assert!((s * h / 3.0 - 2.0).abs() < 1e-10);
    println!("OK");
}
