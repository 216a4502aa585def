// Integer arithmetic edge cases: checked_/wrapping_/saturating_/overflowing_ ops, conversions with TryFrom,
// parse errors, bit manipulation, signed division/remainder/euclid, pow and NonZero types.
use std::convert::TryFrom;
use std::num::{IntErrorKind, NonZeroU32};

fn factorial_checked(n: u64) -> Option<u64> {
    (1..=n).try_fold(1u64, |acc, x| acc.checked_mul(x))
}

fn main() {
    assert_eq!(i32::MAX.checked_add(1), None);
    assert_eq!(200u8.checked_add(55), Some(255));
    assert_eq!(5u32.checked_sub(6), None);
    assert_eq!(i32::MIN.checked_div(-1), None);
    assert_eq!(1i32.checked_div(0), None);
    assert_eq!(1i32.checked_rem(0), None);
    assert_eq!(2u64.checked_pow(64), None);
    assert_eq!(2u64.checked_pow(63), Some(1 << 63));
    assert_eq!(1u8.checked_shl(8), None);
    assert_eq!(i64::MIN.checked_neg(), None);
    assert_eq!(i64::MIN.checked_abs(), None);

    assert_eq!(255u8.wrapping_add(1), 0);
    assert_eq!(0u8.wrapping_sub(1), 255);
    assert_eq!(i32::MAX.wrapping_add(1), i32::MIN);
    assert_eq!(100u8.wrapping_mul(3), 44);
    assert_eq!(i32::MIN.wrapping_abs(), i32::MIN);
    assert_eq!(1u32.wrapping_shl(33), 2);

    assert_eq!(250u8.saturating_add(10), 255);
    assert_eq!(5u8.saturating_sub(10), 0);
    assert_eq!(i16::MIN.saturating_sub(1), i16::MIN);
    assert_eq!((-100i8).saturating_mul(2), i8::MIN);

    assert_eq!(255u8.overflowing_add(1), (0, true));
    assert_eq!(i32::MAX.overflowing_mul(2), (-2, true));
    assert_eq!(3u8.overflowing_sub(1), (2, false));

    assert_eq!(factorial_checked(20), Some(2432902008176640000));
    assert_eq!(factorial_checked(21), None);

    assert_eq!(u8::try_from(300i32).is_err(), true);
    assert_eq!(u8::try_from(200i32), Ok(200u8));
    assert_eq!(i8::try_from(-129i64).is_err(), true);
    assert_eq!(usize::try_from(-1i32).is_err(), true);
    let v: u16 = 70_000u32.try_into().unwrap_or(u16::MAX);
    assert_eq!(v, u16::MAX);
    assert_eq!(300i32 as u8, 44);
    assert_eq!(-1i32 as u32, u32::MAX);
    assert_eq!(3.99f64 as i32, 3);
    assert_eq!(-1.5f64 as u8, 0);
    assert_eq!(1e20f64 as i32, i32::MAX);
    assert_eq!(f64::NAN as i32, 0);

    let e = "256".parse::<u8>().unwrap_err();
    assert_eq!(e.kind(), &IntErrorKind::PosOverflow);
    assert_eq!("-129".parse::<i8>().unwrap_err().kind(), &IntErrorKind::NegOverflow);
    assert_eq!("".parse::<i32>().unwrap_err().kind(), &IntErrorKind::Empty);
    assert_eq!("12a".parse::<i32>().unwrap_err().kind(), &IntErrorKind::InvalidDigit);
    assert_eq!(i64::from_str_radix("-ff", 16), Ok(-255));
    assert_eq!(u32::from_str_radix("1011", 2), Ok(11));
    assert_eq!("+7".parse::<i32>(), Ok(7));

    assert_eq!(0b1011_0000u8.count_ones(), 3);
    assert_eq!(1u32.leading_zeros(), 31);
    assert_eq!(8u16.trailing_zeros(), 3);
    assert_eq!(0x12345678u32.swap_bytes(), 0x78563412);
    assert_eq!(0x12345678u32.rotate_left(8), 0x34567812);
    assert_eq!(0b0001u8.reverse_bits(), 0b1000_0000);
    assert_eq!(u32::from_be_bytes([1, 2, 3, 4]), 0x01020304);
    assert_eq!(0x01020304u32.to_le_bytes(), [4, 3, 2, 1]);
    assert!(64u32.is_power_of_two() && 65u32.next_power_of_two() == 128);

    assert_eq!(-7 / 2, -3);
    assert_eq!(-7 % 2, -1);
    assert_eq!((-7i32).div_euclid(2), -4);
    assert_eq!((-7i32).rem_euclid(2), 1);
    assert_eq!((-5i32).signum(), -1);
    assert_eq!((-5i32).abs(), 5);
    assert_eq!(10u32.abs_diff(13), 3);
    assert_eq!(3i64.pow(20), 3486784401);
    assert_eq!(i32::MAX.count_ones(), 31);

    let nz = NonZeroU32::new(5).unwrap();
    assert_eq!(nz.get(), 5);
    assert!(NonZeroU32::new(0).is_none());
    assert_eq!(std::mem::size_of::<Option<NonZeroU32>>(), 4);

    // -O builds wrap on plain overflow; the explicit APIs above say what the program means
    let wrapped = "250".parse::<u8>().unwrap();
    assert_eq!(wrapped.wrapping_add(10), 4);
    println!("OK");
}
